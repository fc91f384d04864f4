import type Database from 'better-sqlite3';

/**
 * Checks a catalog database: SQLite integrity, foreign keys, the FTS index (its own check when
 * writable, row count always), chunks without a cached vector and cached vectors that are not sound
 * (counted by the caller). Returns one line per problem.
 */
export function checkCatalogIntegrity(
  db: Database.Database,
  options: { readonly writable: boolean; readonly missingVectors: number; readonly unsoundVectors: number },
): string[] {
  const problems = sqliteIntegrityProblems(db).map((r) => `sqlite: ${r}`);

  const orphans = db.pragma('foreign_key_check') as unknown[];
  if (orphans.length > 0) problems.push(`${orphans.length} rows reference missing files`);

  if (options.writable) {
    try {
      // FTS5's own consistency check; it is an INSERT command, so only a writable connection may run it.
      db.prepare("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 0)").run();
    } catch (error) {
      problems.push(`fts: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const chunks = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
  const ftsRows = db.prepare('SELECT count(*) FROM chunks_fts').pluck().get() as number;
  if (chunks !== ftsRows) problems.push(`fts: ${ftsRows} rows for ${chunks} chunks`);

  if (options.missingVectors > 0) problems.push(`${options.missingVectors} chunks have no cached vector`);
  if (options.unsoundVectors > 0) {
    problems.push(`${options.unsoundVectors} cached vectors are damaged (not finite, or not of unit length)`);
  }
  return problems;
}

/** The lines of SQLite's `integrity_check` other than "ok" (b-tree structure, index entries against their tables). */
export function sqliteIntegrityProblems(db: Database.Database): string[] {
  return (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).filter((r) => r !== 'ok');
}
