import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, IndexCorruptError, IndexMismatchError } from '../errors.js';
import { snapshotCatalog, type CatalogSnapshot } from './catalog-snapshot.js';
import { catalogFileStamp, matchesCheckStamp, recordCheckStamp } from './check-stamp.js';
import { createPrivateFileSync, makePrivateDirSync } from './private-files.js';
import { PENDING_TEXTS_DDL } from './pending-texts.js';
import { createSchema, isEmptyDatabase, readSchemaVersion, SCHEMA_VERSION } from './schema.js';

/** File name of the catalog inside an index directory. */
export const CATALOG_FILE = 'catalog.sqlite';

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY, in ms. */
export const BUSY_TIMEOUT_MS = 5000;

/** Absolute path of the catalog database of `indexDir`. */
export function catalogPath(indexDir: string): string {
  return join(indexDir, CATALOG_FILE);
}

/** Options of `openCatalogDatabase`. */
export interface OpenDatabaseOptions {
  /** Open without writing anything; the catalog must exist. */
  readonly readonly?: boolean;
  /**
   * Run `PRAGMA quick_check` on open (default true; O(database size)) — skipped when the files are exactly as they
   * were when a check last passed (see check-stamp.ts).
   */
  readonly quickCheck?: boolean;
}

/** An open catalog database; `snapshot` is set when a read-only folder made it read a private copy. */
export interface CatalogDatabase {
  readonly db: Database.Database;
  /** The private copy being read; removed by its `dispose()` after the database is closed. */
  readonly snapshot?: CatalogSnapshot;
}

/**
 * Opens (and, unless readonly, creates) the catalog database of `indexDir` with WAL, busy timeout,
 * synchronous=NORMAL and foreign keys, and checks it. A readonly open of a folder SQLite cannot write its
 * shared-memory file into (a read-only location) reads a private copy instead (see catalog-snapshot.ts).
 * Throws IndexCorruptError when the file is not a SQLite database or fails quick_check,
 * IndexMismatchError when it has another schema version or is not a codescout catalog,
 * ConfigError when `readonly` is set and there is no catalog.
 */
export function openCatalogDatabase(indexDir: string, options: OpenDatabaseOptions = {}): CatalogDatabase {
  const path = catalogPath(indexDir);
  const readonly = options.readonly ?? false;
  if (readonly && !existsSync(path)) throw missingIndexError(indexDir, path);
  if (!readonly) {
    makePrivateDirSync(indexDir);
    createPrivateFileSync(path); // 0600 before SQLite creates it 0644 (its -wal and -shm copy the mode)
  }

  // Taken before SQLite opens the files (opening creates the -wal): the state a passed check vouches for.
  const stamp = catalogFileStamp(path);
  try {
    return { db: openChecked({ indexDir, path, readonly, stamp, quickCheck: options.quickCheck ?? true }) };
  } catch (error) {
    if (!readonly || !needsSharedMemoryFile(error)) throw error;
  }
  const snapshot = snapshotCatalog(path);
  try {
    return { db: openChecked({ indexDir, path, file: snapshot.path, readonly, stamp, quickCheck: options.quickCheck ?? true }), snapshot };
  } catch (error) {
    snapshot.dispose();
    throw error;
  }
}

/** Opens `file` (default: the catalog at `path`, which messages name), configures and checks it. */
function openChecked(o: { indexDir: string; path: string; file?: string; readonly: boolean; stamp: string | null; quickCheck: boolean }): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(o.file ?? o.path, { readonly: o.readonly, fileMustExist: o.readonly });
  } catch (error) {
    throw isCorruptionError(error) ? corruptError(o.path, error) : error;
  }
  try {
    configure(db, o.readonly);
    if (o.quickCheck && !matchesCheckStamp(o.indexDir, o.stamp)) {
      assertQuickCheck(db, o.path);
      recordCheckStamp(o.indexDir, o.stamp);
    }
    ensureSchema(db, { indexDir: o.indexDir, path: o.path, readonly: o.readonly });
    return db;
  } catch (error) {
    db.close();
    throw isCorruptionError(error) ? corruptError(o.path, error) : error;
  }
}

/**
 * True for the errors of a readonly WAL open in a folder where SQLite may not create the `-shm` file
 * (SQLITE_READONLY_DIRECTORY, or SQLITE_CANTOPEN when the folder is not even searchable for it).
 */
function needsSharedMemoryFile(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_CANTOPEN';
}

function configure(db: Database.Database, readonly: boolean): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // The first real read of the header happens here, so a garbage file fails with SQLITE_NOTADB.
  if (readonly) db.pragma('schema_version');
  else switchToWal(db);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
}

/**
 * Puts the database in WAL mode. On a new file that another process is opening at the same moment, SQLite answers
 * SQLITE_BUSY without calling the busy handler (the switch needs the file to itself), so it is retried here for
 * as long as the busy timeout allows.
 */
function switchToWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 20);
    }
  }
}

function assertQuickCheck(db: Database.Database, path: string): void {
  const rows = db.pragma('quick_check') as Array<{ quick_check: string }>;
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length > 0) throw corruptError(path, new Error(problems.slice(0, 5).join('; ')));
}

function ensureSchema(db: Database.Database, at: { indexDir: string; path: string; readonly: boolean }): void {
  const version = readSchemaVersion(db);
  if (version === SCHEMA_VERSION) {
    // Indexes added within a schema version are created on open (a no-op once present).
    if (!at.readonly) {
      db.exec('CREATE INDEX IF NOT EXISTS chunks_symbol ON chunks(symbol)');
      db.exec(PENDING_TEXTS_DDL);
    }
    return;
  }
  if (version === null && isEmptyDatabase(db)) {
    if (at.readonly) throw missingIndexError(at.indexDir, at.path);
    // Two processes may open a new index at once: the write lock (IMMEDIATE) serialises them, and the second
    // finds the schema the first created instead of creating it again.
    db.transaction(() => {
      if (readSchemaVersion(db) === null && isEmptyDatabase(db)) createSchema(db);
    }).immediate();
    if (readSchemaVersion(db) === SCHEMA_VERSION) return;
  }
  const found = version === null ? 'is not a codescout catalog' : `has schema version ${version}`;
  throw new IndexMismatchError(
    `${at.path} ${found}; this codescout expects schema version ${SCHEMA_VERSION}. ` +
      'Rebuild the index: codescout index --rebuild',
    at.indexDir,
  );
}

/** True for SQLite errors that mean the file is damaged or not a database at all. */
export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}

function corruptError(path: string, cause: unknown): IndexCorruptError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new IndexCorruptError(
    `Catalog ${path} is damaged (${reason}). Move it aside and rebuild: codescout index --rebuild`,
    path,
    { cause },
  );
}

function missingIndexError(indexDir: string, path: string): ConfigError {
  return new ConfigError(`No index at ${indexDir} (${path} is missing). Build it first: codescout index`, 'indexDir');
}

/**
 * Renames a damaged catalog (and its -wal / -shm files) to `catalog.sqlite.corrupt-<timestamp>` so a
 * rebuild can start fresh while the evidence is kept. Returns the new path of the main file.
 * Throws the fs error when the catalog cannot be renamed (ENOENT when it is missing).
 */
export function quarantineCorruptDatabase(indexDir: string): string {
  const path = catalogPath(indexDir);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${path}.corrupt-${stamp}`;
  renameSync(path, target);
  for (const suffix of ['-wal', '-shm']) {
    // The side files belong to the damaged database; left in place they would be applied to the new one.
    if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
  }
  return target;
}
