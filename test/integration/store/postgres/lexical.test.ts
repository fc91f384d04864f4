import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../../src/store/catalog.js';
import type { ReplaceFileInput } from '../../../../src/store/catalog-types.js';
import type { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { chunk, fileInput, openWriter, unit } from '../../../support/postgres-fixtures.js';
import { isPostgresSkipped, startPostgres, type PostgresServer } from '../../../support/postgres-server.js';

/** A small code base whose identifiers come in every casing. */
const FILES: ReplaceFileInput[] = [
  fileInput('src/net/pacing.ts', [
    { chunk: chunk('throttleRequests', 'export function throttleRequests(limit: number) {\n  return new RateLimiter(limit);\n}'), vector: unit(1, 0, 0, 0) },
    { chunk: chunk('RateLimiter', 'export class RateLimiter {\n  constructor(readonly perSecond: number) {}\n}', 5, { kind: 'class' }), vector: unit(0, 1, 0, 0) },
  ]),
  fileInput('src/config/limits.py', [
    { chunk: chunk('MAX_FILE_BYTES', 'MAX_FILE_BYTES = 1_000_000\nmax_file_count = 20', 1, { kind: 'text' }), vector: unit(0, 0, 1, 0) },
    { chunk: chunk('read_config_file', 'def read_config_file(path):\n    return open(path).read()', 4), vector: unit(0, 0, 0, 1) },
  ], 'python'),
  fileInput('src/http/parse.ts', [
    { chunk: chunk('parseHTTPResponse2xx', 'export function parseHTTPResponse2xx(body: string) {\n  return JSON.parse(body);\n}'), vector: unit(1, 1, 0, 0) },
  ]),
  fileInput('docs/café.md', [
    { chunk: chunk('Crème brûlée', 'Notes about the café: the limit of requests per second.', 1, { kind: 'section' }), vector: unit(0, 1, 1, 0) },
  ], 'markdown'),
];

const QUERIES = [
  'throttle', 'rate limiter', 'RateLimiter', 'max file bytes', 'max_file_bytes', 'http response', 'parseHTTPResponse2xx',
  'read config file', 'limit requests per second', 'cafe creme', 'config', 'file',
];

describe.skipIf(isPostgresSkipped)('PostgreSQL store: lexical search', () => {
  let server: PostgresServer;
  let pg: PostgresCatalog;
  let other: PostgresCatalog;
  let sqliteDir: string;
  let sqlite: Catalog;

  beforeAll(async () => {
    server = await startPostgres();
    pg = await openWriter(server.connectionString, 'main', 'lexical');
    other = await openWriter(server.connectionString, 'other', 'lexical');
    sqliteDir = mkdtempSync(join(tmpdir(), 'codescout-lexical-'));
    sqlite = Catalog.open(sqliteDir);
    for (const file of FILES) {
      await pg.replaceFile(file);
      sqlite.replaceFile(file);
    }
    await other.replaceFile(fileInput('elsewhere.ts', [{ chunk: chunk('throttleElsewhere', 'function throttleElsewhere() {}'), vector: unit(1, 0, 0, 0) }]));
  });
  afterAll(async () => {
    await pg?.close();
    await other?.close();
    sqlite?.close();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
    await server?.stop();
  });

  async function symbolsFor(query: string, options: { wholeWordsOnly?: boolean } = {}): Promise<string[]> {
    const hits = await pg.lexicalSearch(query, { k: 10, ...options });
    const rows = await pg.getChunks(hits.map((h) => h.rowId));
    return rows.map((r) => r.symbol);
  }

  it('finds identifiers by their camelCase, PascalCase, snake_case and acronym parts', async () => {
    expect(await symbolsFor('throttle')).toEqual(['throttleRequests']);
    expect((await symbolsFor('rate limiter'))[0]).toBe('RateLimiter');
    expect((await symbolsFor('max file bytes'))[0]).toBe('MAX_FILE_BYTES');
    expect(await symbolsFor('http response')).toEqual(['parseHTTPResponse2xx']);
    expect((await symbolsFor('read config file'))[0]).toBe('read_config_file');
  });

  it('matches a whole snake_case identifier as one word, and only whole words when asked', async () => {
    expect(await symbolsFor('max_file_bytes', { wholeWordsOnly: true })).toEqual(['MAX_FILE_BYTES']);
    expect(await symbolsFor('max_file_count', { wholeWordsOnly: true })).toEqual(['MAX_FILE_BYTES']);
    // No chunk holds the whole word file_count; split, its part "count" matches (and "file", in a third of the chunks, is cut).
    expect(await symbolsFor('file_count', { wholeWordsOnly: true })).toEqual([]);
    expect(await symbolsFor('file_count')).toEqual(['MAX_FILE_BYTES']);
  });

  it('folds case and diacritics like FTS5 unicode61', async () => {
    expect(await symbolsFor('CAFE creme')).toEqual(['Crème brûlée']);
  });

  it('ranks with the same BM25 scores as the SQLite store for the same chunks', async () => {
    for (const query of QUERIES) {
      const expected = sqlite.lexicalSearch(query, { k: 10 });
      const actual = await pg.lexicalSearch(query, { k: 10 });
      const sqliteSymbols = sqlite.getChunks(expected.map((h) => h.rowId)).map((r) => r.symbol);
      const pgSymbols = (await pg.getChunks(actual.map((h) => h.rowId))).map((r) => r.symbol);
      expect({ query, symbols: pgSymbols }).toEqual({ query, symbols: sqliteSymbols });
      actual.forEach((hit, i) => expect(hit.score, `${query} #${i}`).toBeCloseTo(expected[i]!.score, 6));
    }
  });

  it('filters by path, stays in its namespace, and treats query syntax as words', async () => {
    expect(await pg.lexicalSearch('limit', { k: 10, accept: (path) => path.startsWith('docs/') })).toHaveLength(1);
    expect((await other.getChunks((await other.lexicalSearch('throttle', { k: 10 })).map((h) => h.rowId))).map((r) => r.symbol)).toEqual(['throttleElsewhere']);
    expect(await symbolsFor('throttle')).toEqual(['throttleRequests']);
    for (const hostile of ["'); DROP TABLE chunks; --", 'foo:* | bar & !baz', "a'b\\c", '"unclosed', '<->', '']) {
      await expect(pg.lexicalSearch(hostile, { k: 5 })).resolves.toBeInstanceOf(Array);
    }
    expect(await pg.chunkCount()).toBe(6);
  });
});
