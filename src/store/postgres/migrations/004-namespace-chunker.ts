import type { Migration } from './migration.js';

/**
 * The chunker version the namespace's last complete full pass chunked every file with (NULL: none recorded), so that
 * a writer with another chunker chunks every file again instead of keeping the old chunks of unchanged files.
 */
export const namespaceChunker: Migration = {
  version: 4,
  name: 'namespace-chunker',
  sql: `ALTER TABLE namespaces ADD COLUMN chunker text;`,
};
