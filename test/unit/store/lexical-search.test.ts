import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/store/catalog.js';
import { buildMatchExpression } from '../../../src/store/fts-query.js';
import { chunk, fileInput, makeTempDirs } from './store-helpers.js';

const tmp = makeTempDirs();
const open: Catalog[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  tmp.cleanup();
});

function seeded(): Catalog {
  const catalog = Catalog.open(tmp.make());
  open.push(catalog);
  catalog.initManifest({ model: 'm', dimension: 4, revision: 'rev1', root: '/r' });
  catalog.replaceFile(fileInput('src/net/throttle.ts', [
    chunk('throttleRequests', 'export function throttleRequests(queue: Request[]) { return queue.slice(0, limit); }', 1),
    chunk('limitFor', 'function limitFor(user) { return user.plan.limit; }', 10),
  ]));
  catalog.replaceFile(fileInput('src/paths.py.ts', [
    chunk('_get_server_data_file_path', 'def _get_server_data_file_path(): return base + "/data"', 1),
  ]));
  catalog.replaceFile(fileInput('docs/guide.md', [
    chunk('Guide', 'Requests are queued. The queue drains slowly; requests wait for the queue.', 1, { kind: 'section' }),
  ]));
  return catalog;
}

describe('Catalog.lexicalSearch', () => {
  it('ranks the chunk named by an identifier first', () => {
    const catalog = seeded();
    const hits = catalog.lexicalSearch('throttleRequests', { k: 5 });
    expect(hits[0]?.rowId).toBe(1);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]?.score ?? 0);
  });

  it('finds a camelCase identifier by one of its words via the caller-supplied terms', () => {
    const catalog = seeded();
    // Row 2 matches only through its path (src/net/throttle.ts), which weighs less.
    expect(catalog.lexicalSearch('throttle', { k: 5 }).map((h) => h.rowId)).toEqual([1, 2]);
  });

  it('finds a snake_case identifier from its words and from the whole name', () => {
    const catalog = seeded();
    expect(catalog.lexicalSearch('get server data file path', { k: 1 }).map((h) => h.rowId)).toEqual([3]);
    expect(catalog.lexicalSearch('_get_server_data_file_path', { k: 1 }).map((h) => h.rowId)).toEqual([3]);
  });

  it('never lets user text inject FTS5 syntax', () => {
    const catalog = seeded();
    for (const query of ['"foo* OR NEAR(', 'NEAR(a b', 'symbol:limitFor', 'a AND', '(((', '-x ^y', "it's", 'OR']) {
      expect(() => catalog.lexicalSearch(query, { k: 5 })).not.toThrow();
    }
    // `symbol:` is no column filter here, just the words symbol, limitfor, limit, for.
    expect(catalog.lexicalSearch('symbol:limitFor', { k: 5 })[0]?.rowId).toBe(2);
  });

  it('returns [] for text without words and for k = 0', () => {
    const catalog = seeded();
    expect(catalog.lexicalSearch('  ?! ** ', { k: 5 })).toEqual([]);
    expect(catalog.lexicalSearch('queue', { k: 0 })).toEqual([]);
  });

  it('filters by path with accept, still returning k hits', () => {
    const catalog = seeded();
    expect(catalog.lexicalSearch('queue requests', { k: 5 }).map((h) => h.rowId)).toEqual([4, 1]);
    const hits = catalog.lexicalSearch('queue requests', { k: 1, accept: (path) => path.startsWith('src/') });
    expect(hits.map((h) => h.rowId)).toEqual([1]);
  });

  it('forgets removed and replaced chunks', () => {
    const catalog = seeded();
    catalog.removeFiles(['src/net/throttle.ts']);
    expect(catalog.lexicalSearch('throttle', { k: 5 })).toEqual([]);
    catalog.replaceFile(fileInput('docs/guide.md', [chunk('Guide', 'Nothing about that any more.', 1)]));
    expect(catalog.lexicalSearch('queue', { k: 5 })).toEqual([]);
    expect(catalog.integrityCheck()).toEqual([]);
  });
});

describe('fts-query', () => {
  it('drops stop words and, given document frequencies, terms found in most chunks', () => {
    expect(buildMatchExpression('where is the throttle')).toBe('"throttle"');
    const df = (words: readonly string[]): Map<string, number> => new Map(words.map((w) => [w, w === 'page' ? 90 : 3]));
    expect(buildMatchExpression('page throttle', { documentFrequencies: df, totalChunks: 100 })).toBe('"throttle"');
    expect(buildMatchExpression('page', { documentFrequencies: df, totalChunks: 100 })).toBe('"page"');
    expect(buildMatchExpression('parseConfig throttle', { splitIdentifiers: false })).toBe('"parseconfig" OR "throttle"');
  });

  it('never lets a term no chunk holds take the place of one that matches', () => {
    const df = (words: readonly string[]): Map<string, number> => new Map(words.map((w) => [w, w === 'page' ? 90 : w === 'zzqx' ? 0 : 3]));
    expect(buildMatchExpression('page zzqx throttle', { documentFrequencies: df, totalChunks: 100 })).toBe('"throttle"');
    // Rare terms beyond the limit: the absent ones are the ones left out.
    const many = Array.from({ length: 16 }, (_, i) => `word${i}`).join(' ');
    expect(buildMatchExpression(`zzqx ${many}`, { documentFrequencies: df, totalChunks: 100 })?.includes('zzqx')).toBe(false);
    // Only absent terms are rare: the query matches nothing (common words alone would only add noise to hybrid).
    expect(buildMatchExpression('page zzqx', { documentFrequencies: df, totalChunks: 100 })).toBe('"zzqx"');
  });

  it('builds a quoted OR expression and null for empty input', () => {
    expect(buildMatchExpression('parseConfig NEAR(')).toBe('"parseconfig" OR "parse" OR "config" OR "near"');
    expect(buildMatchExpression('"*"')).toBeNull();
  });
});
