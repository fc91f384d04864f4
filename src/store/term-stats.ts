import type Database from 'better-sqlite3';
import { cachedStatement } from './statement-cache.js';

/**
 * Document frequency of lower-case words in the FTS index, through a temp fts5vocab view (no schema change,
 * nothing written to the database file). Words not in the index are 0.
 */
export function documentFrequencies(db: Database.Database, words: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (words.length === 0) return out;
  const rows = vocabStatement(db).all(JSON.stringify(words.map((w) => w.toLowerCase()))) as Array<{ term: string; doc: number }>;
  for (const w of words) out.set(w, 0);
  for (const r of rows) out.set(r.term, r.doc);
  return out;
}

/** The prepared vocabulary lookup of a connection, created once (it is on the retrieval loop's hot path). */
const vocabStatements = new WeakMap<Database.Database, Database.Statement>();

function vocabStatement(db: Database.Database): Database.Statement {
  let statement = vocabStatements.get(db);
  if (!statement) {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_vocab USING fts5vocab(main, 'chunks_fts', 'row')");
    statement = db.prepare('SELECT term, doc FROM temp.chunks_vocab WHERE term IN (SELECT value FROM json_each(?))');
    vocabStatements.set(db, statement);
  }
  return statement;
}

/**
 * Row ids of definitions whose symbol is one of `names`, at most `limit`: top-level ones only (not methods
 * or module glue) unless `includeMethods`.
 */
export function symbolRowIds(db: Database.Database, names: readonly string[], limit: number, includeMethods = false): number[] {
  if (names.length === 0) return [];
  const sql = `SELECT id FROM chunks WHERE symbol IN (SELECT value FROM json_each(?)) AND kind NOT IN ${definitionKindsExcluded(includeMethods)} ORDER BY id LIMIT ?`;
  return cachedStatement(db, sql).pluck().all(JSON.stringify(names), limit) as number[];
}

/** Where definitions (top-level, not methods) named one of `names` live: symbol -> paths, from at most `limit` rows. */
export function symbolPaths(db: Database.Database, names: readonly string[], limit: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (names.length === 0) return out;
  const sql = `SELECT c.symbol AS symbol, f.path AS path FROM chunks c JOIN files f ON f.id = c.file_id
    WHERE c.symbol IN (SELECT value FROM json_each(?)) AND c.kind NOT IN ${definitionKindsExcluded(false, 'c.')} ORDER BY c.id LIMIT ?`;
  for (const r of cachedStatement(db, sql).all(JSON.stringify(names), limit) as Array<{ symbol: string; path: string }>) {
    const paths = out.get(r.symbol) ?? [];
    if (!paths.includes(r.path)) paths.push(r.path);
    out.set(r.symbol, paths);
  }
  return out;
}

/**
 * Kinds that are not definitions. Methods count only with `includeMethods` or when their name is compound
 * (`ServeSuggest`, `open_balances`, not `get` or `__init__`): in Go, Java or Rust most code is methods, and a
 * compound name is as distinctive as a function's.
 */
function definitionKindsExcluded(includeMethods: boolean, alias = ''): string {
  const kinds = "('module', 'text', 'section')";
  if (includeMethods) return `${kinds}`;
  const compound = `(${alias}symbol GLOB '*[a-z0-9][A-Z]*' OR (${alias}symbol GLOB '*[a-zA-Z0-9]_[a-zA-Z0-9]*' AND ${alias}symbol NOT GLOB '__*'))`;
  return `${kinds} AND (${alias}kind != 'method' OR ${compound})`;
}
