import type { Migration } from './migration.js';
import { initial } from './001-initial.js';
import { branchBases } from './002-branch-bases.js';
import { namespaceGlobs } from './003-namespace-globs.js';
import { namespaceChunker } from './004-namespace-chunker.js';

export type { Migration } from './migration.js';

/** Every migration, oldest first. Append new ones; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [initial, branchBases, namespaceGlobs, namespaceChunker];

/** The schema version this codescout writes and reads: the last migration's. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
