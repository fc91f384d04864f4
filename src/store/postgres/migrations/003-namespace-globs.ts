import type { Migration } from './migration.js';

/**
 * The `--include`/`--exclude` globs a namespace was indexed with (NULL: none given), so that a developer's local
 * layer over it (watch --store, mcp --store) indexes the files the shared index holds, whatever machine it runs on.
 */
export const namespaceGlobs: Migration = {
  version: 3,
  name: 'namespace-globs',
  sql: `ALTER TABLE namespaces ADD COLUMN globs jsonb;`,
};
