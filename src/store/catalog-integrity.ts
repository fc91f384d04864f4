import type Database from 'better-sqlite3';

/**
 * Checks a catalog database: SQLite integrity, foreign keys, the FTS index (its own check when
 * writable, row count always) and chunks without a cached vector. Returns one line per problem.
 */
export function checkCatalogIntegrity(
  db: Database.Database,
  options: { readonly writable: boolean; readonly missingVectors: number },
): string[] {
  const problems: string[] = [];
  const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>)
    .map((r) => r.integrity_check)
    .filter((r) => r !== 'ok');
  problems.push(...integrity.map((r) => `sqlite: ${r}`));

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
  return problems;
}
