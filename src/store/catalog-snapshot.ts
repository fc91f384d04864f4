import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** A private copy of a catalog database, for reading it where SQLite cannot. */
export interface CatalogSnapshot {
  /** Path of the copied database. */
  readonly path: string;
  /** Removes the copy (call after closing the database that reads it). */
  dispose(): void;
}

/**
 * Copies the catalog at `path` (with its -wal, if any) into a new folder under the OS temp folder.
 * Why a copy: a catalog is in WAL mode, and SQLite reads a WAL database only with a `-shm` file beside it, which it
 * cannot create in a read-only folder; the `immutable=1` open that would avoid it needs URI file names, which
 * better-sqlite3 enables only through an environment variable read when it loads. A reader of a read-only
 * location therefore reads a copy taken at open time (the location cannot change under it: nobody can write there).
 * Throws the fs error when the copy cannot be made.
 */
export function snapshotCatalog(path: string): CatalogSnapshot {
  const dir = mkdtempSync(join(tmpdir(), 'codescout-readonly-'));
  const target = join(dir, basename(path));
  try {
    copyFileSync(path, target);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${target}-wal`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { path: target, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
