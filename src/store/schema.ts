import type Database from 'better-sqlite3';
import { PENDING_TEXTS_DDL } from './pending-texts.js';

/**
 * Version of the catalog's table layout. Bump it on any incompatible change; a catalog with another
 * version is refused with IndexMismatchError (the fix is a rebuild, not a migration).
 */
export const SCHEMA_VERSION = 1;

/**
 * FTS5 tokenizer of `chunks_fts`. `unicode61` folds case and diacritics; `tokenchars '_'` keeps
 * snake_case identifiers whole, so `max_file_bytes` is one token and camelCase stays one token anyway.
 * The split parts (`max file bytes`, `throttle requests`) come from the caller's lexical terms, which are
 * stored next to the text, so both a whole identifier and any of its words match.
 */
export const FTS_TOKENIZER = "unicode61 remove_diacritics 2 tokenchars '_'";

const DDL = `
CREATE TABLE manifest (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE files (
  id           INTEGER PRIMARY KEY,
  path         TEXT NOT NULL UNIQUE,
  size         INTEGER NOT NULL,
  mtime_ms     REAL NOT NULL,
  content_hash TEXT NOT NULL,
  language     TEXT NOT NULL,
  indexed_at   INTEGER NOT NULL
);

-- AUTOINCREMENT: row ids are never reused, because they are the HNSW labels.
CREATE TABLE chunks (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id    INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  chunk_key  TEXT NOT NULL,
  kind       TEXT NOT NULL,
  symbol     TEXT NOT NULL,
  parent     TEXT,
  signature  TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line   INTEGER NOT NULL,
  part_index INTEGER,
  part_count INTEGER,
  text_hash  TEXT NOT NULL,
  text       TEXT NOT NULL
);
CREATE INDEX chunks_file_id ON chunks(file_id);
CREATE INDEX chunks_text_hash ON chunks(text_hash);
CREATE INDEX chunks_chunk_key ON chunks(chunk_key);
CREATE INDEX chunks_symbol ON chunks(symbol);

-- The embedding cache: kept across file deletions and rebuilds, so identical text is embedded once.
CREATE TABLE embeddings (
  text_hash TEXT NOT NULL,
  revision  TEXT NOT NULL,
  vector    BLOB NOT NULL,
  used_at   INTEGER NOT NULL,
  PRIMARY KEY (text_hash, revision)
);

-- Contentless with delete support: the text lives in chunks; rowid = chunks.id.
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  terms, path, symbol,
  content = '', contentless_delete = 1,
  tokenize = "${FTS_TOKENIZER}"
);
`;

/** Creates every table of an empty catalog and records the schema version and generation 0. */
export function createSchema(db: Database.Database): void {
  db.exec(DDL);
  db.exec(PENDING_TEXTS_DDL);
  const insert = db.prepare('INSERT INTO manifest (key, value) VALUES (?, ?)');
  insert.run('schemaVersion', String(SCHEMA_VERSION));
  insert.run('generation', '0');
  insert.run('createdAt', new Date().toISOString());
}

/** True when the database has no tables at all (a new or zero-byte file). */
export function isEmptyDatabase(db: Database.Database): boolean {
  const row = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
  return row.n === 0;
}

/** The schema version recorded in the manifest, or null when the database has no codescout manifest. */
export function readSchemaVersion(db: Database.Database): number | null {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'manifest'").get();
  if (table === undefined) return null;
  const row = db.prepare("SELECT value FROM manifest WHERE key = 'schemaVersion'").get() as { value: string } | undefined;
  return row === undefined ? null : Number(row.value);
}
