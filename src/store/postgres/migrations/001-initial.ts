import type { Migration } from './migration.js';

/**
 * The first layout: namespaces (one per `(repo, ref)`, each with its manifest), files and chunks per namespace,
 * the embedding cache shared by all namespaces (pgvector, any dimension: the HNSW index is per dimension, see
 * vector-search.ts), the queue of texts waiting for vectors, and the writer-lock holders.
 */
export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE namespaces (
  id           bigserial PRIMARY KEY,
  repo         text NOT NULL,
  ref          text NOT NULL,
  model        text,
  dimension    integer,
  revision     text,
  root         text,
  generation   bigint NOT NULL DEFAULT 0,
  reset_reason text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (repo, ref)
);

CREATE TABLE files (
  id           bigserial PRIMARY KEY,
  namespace_id bigint NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  path         text NOT NULL,
  size         bigint NOT NULL,
  mtime_ms     double precision NOT NULL,
  content_hash text NOT NULL,
  language     text NOT NULL,
  indexed_at   bigint NOT NULL,
  UNIQUE (namespace_id, path)
);

-- A sequence never hands out an id twice, so chunk ids keep the meaning of the SQLite AUTOINCREMENT row ids.
-- terms: the lexical row (text + lexical terms weight D, path C, symbol A), built by tsvector.ts; term_count is
-- its length in tokens for BM25.
CREATE TABLE chunks (
  id           bigserial PRIMARY KEY,
  namespace_id bigint NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  file_id      bigint NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  chunk_key    text NOT NULL,
  kind         text NOT NULL,
  symbol       text NOT NULL,
  parent       text,
  signature    text NOT NULL,
  start_line   integer NOT NULL,
  end_line     integer NOT NULL,
  part_index   integer,
  part_count   integer,
  text_hash    text NOT NULL,
  text         text NOT NULL,
  terms        tsvector NOT NULL,
  term_count   integer NOT NULL
);
CREATE INDEX chunks_file_id ON chunks (file_id);
CREATE INDEX chunks_namespace_hash ON chunks (namespace_id, text_hash);
CREATE INDEX chunks_namespace_symbol ON chunks (namespace_id, symbol);
CREATE INDEX chunks_text_hash ON chunks (text_hash);
CREATE INDEX chunks_terms ON chunks USING gin (terms);

-- Shared by every namespace: identical text is embedded once for the whole database.
CREATE TABLE embeddings (
  text_hash text NOT NULL,
  revision  text NOT NULL,
  dims      integer NOT NULL,
  vector    vector NOT NULL,
  used_at   bigint NOT NULL,
  PRIMARY KEY (text_hash, revision),
  CHECK (vector_dims(vector) = dims)
);

CREATE TABLE pending_texts (
  text_hash  text PRIMARY KEY,
  embed_text text NOT NULL,
  queued_at  bigint NOT NULL,
  seq        bigserial
);

-- Who holds a namespace's writer lock (the lock itself is a session advisory lock; this row names its holder).
CREATE TABLE writer_locks (
  namespace_id bigint PRIMARY KEY REFERENCES namespaces(id) ON DELETE CASCADE,
  host         text NOT NULL,
  pid          integer NOT NULL,
  started_at   timestamptz NOT NULL,
  backend_pid  integer NOT NULL
);
`,
};
