import type { Migration } from './migration.js';

/**
 * Branch namespaces over a base: `base_ref` names the namespace of the same repository whose files a namespace
 * inherits (NULL: a whole index). Such a namespace holds only the files that differ from its base, and rows that hide
 * the base's files it deleted (see src/store/overlay/), so a branch that changes a few files costs a few files.
 */
export const branchBases: Migration = {
  version: 2,
  name: 'branch-bases',
  sql: `ALTER TABLE namespaces ADD COLUMN base_ref text;`,
};
