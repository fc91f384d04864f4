import { afterEach, describe, expect, it } from 'vitest';
import { compilePathGlobs } from '../../../src/retrieve/path-globs.js';
import { expandLexicalList } from '../../../src/retrieve/lexical-expansion.js';
import { Catalog } from '../../../src/store/catalog.js';
import { chunk, fileInput, makeTempDirs, seededRandom } from '../store/store-helpers.js';

const tmp = makeTempDirs();
const open: Catalog[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  tmp.cleanup();
});

const WORDS = ['queue', 'request', 'throttle', 'bucket', 'token', 'session', 'refresh', 'router', 'handler', 'limit', 'retry', 'cache'];

/** 8 files x 5 chunks of random sentences over a small vocabulary: many chunks share many words. */
function seeded(): Catalog {
  const catalog = Catalog.open(tmp.make());
  open.push(catalog);
  catalog.initManifest({ model: 'm', dimension: 4, revision: 'rev1', root: '/r' });
  const random = seededRandom(20261129);
  for (let f = 0; f < 8; f++) {
    const chunks = Array.from({ length: 5 }, (_, c) => {
      const words = Array.from({ length: 4 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]!);
      return chunk(`fn${f}x${c}`, words.join(' '), c * 10 + 1);
    });
    catalog.replaceFile(fileInput(`src/part${f}/file${f}.ts`, chunks));
  }
  return catalog;
}

describe('expandLexicalList', () => {
  it('ranks task + learned words exactly as one BM25 search of all of them (BM25 sums over terms)', () => {
    const catalog = seeded();
    const all = { k: 1000 };
    for (const [task, learned] of [['queue request', 'throttle bucket'], ['session', 'refresh token retry'], ['router handler limit', 'cache']]) {
      const taskHits = catalog.lexicalSearch(task!, all);
      const learnedHits = catalog.lexicalSearch(learned!, all);
      const expanded = expandLexicalList({
        task: taskHits,
        learned: learnedHits,
        paths: catalog.rowPaths([...taskHits, ...learnedHits].map((h) => h.rowId)),
        depth: 1000,
      });
      const direct = catalog.lexicalSearch(`${task} ${learned}`, all);
      expect(expanded.map((h) => h.rowId).sort((a, b) => a - b)).toEqual(direct.map((h) => h.rowId).sort((a, b) => a - b));
      const directScore = new Map(direct.map((h) => [h.rowId, h.score]));
      for (const h of expanded) expect(h.score).toBeCloseTo(directScore.get(h.rowId)!, 9);
      // Same order, up to ties.
      for (let i = 1; i < expanded.length; i++) expect(expanded[i - 1]!.score).toBeGreaterThanOrEqual(expanded[i]!.score);
    }
  });

  it("drops rows of both lists that the cycle's filter excludes, and keeps the depth", () => {
    const catalog = seeded();
    const taskHits = catalog.lexicalSearch('queue request', { k: 1000 });
    const learnedHits = catalog.lexicalSearch('throttle', { k: 1000 });
    const paths = catalog.rowPaths([...taskHits, ...learnedHits].map((h) => h.rowId));
    const accept = compilePathGlobs([], ['src/part3/**']);
    const expanded = expandLexicalList({ task: taskHits, learned: learnedHits, paths, accept, depth: 5 });
    expect(expanded).toHaveLength(5);
    expect(expanded.every((h) => !paths.get(h.rowId)!.startsWith('src/part3/'))).toBe(true);
    const inPart3 = (h: { rowId: number }): boolean => paths.get(h.rowId)!.startsWith('src/part3/');
    expect(taskHits.some(inPart3) && learnedHits.some(inPart3)).toBe(true);
  });
});
