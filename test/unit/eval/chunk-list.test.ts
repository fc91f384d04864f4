import { describe, expect, it } from 'vitest';
import { chunkList, upToFiles } from '../../../scripts/eval/answer.js';
import { distinctPaths } from '../../../scripts/eval/metrics.js';
import type { ResultFile } from '../../../src/index.js';

/** A result file whose chunks (best first) have the given relevances; chunk i spans lines 10i+1..10i+5. */
function file(path: string, relevances: number[]): ResultFile {
  return {
    path, relevance: relevances[0] ?? 0, reason: '', missingContext: [], cycle: 1, role: 'answer',
    chunks: relevances.map((relevance, i) => ({ symbol: `${path}#${i}`, kind: 'function', parent: null, startLine: 10 * i + 1, endLine: 10 * i + 5, relevance })),
  };
}

describe('chunkList', () => {
  const files = [file('a.go', [0.9, 0.85, 0.3]), file('b.go', [0.6]), file('c.go', [0.5, 0.45])];

  it('relevance: a strong file\'s second chunk comes before a weaker file\'s best, and the file order stays the answer\'s', () => {
    const { labels, results } = chunkList(files, 'relevance');
    expect(labels).toEqual(['a.go:1-5 a.go#0', 'a.go:11-15 a.go#1', 'b.go:1-5 b.go#0', 'c.go:1-5 c.go#0', 'c.go:11-15 c.go#1', 'a.go:21-25 a.go#2']);
    expect(distinctPaths(results)).toEqual(['a.go', 'b.go', 'c.go']);
  });

  it('relevance: a file ranked first keeps its place even when a later file\'s chunk scores higher', () => {
    const { results } = chunkList([file('low.ts', [0.4]), file('high.ts', [0.95, 0.9])], 'relevance');
    expect(distinctPaths(results)).toEqual(['low.ts', 'high.ts']);
  });

  it('round-robin: every file\'s best chunk, then every file\'s second', () => {
    const { labels } = chunkList(files, 'round-robin');
    expect(labels).toEqual(['a.go:1-5 a.go#0', 'b.go:1-5 b.go#0', 'c.go:1-5 c.go#0', 'a.go:11-15 a.go#1', 'c.go:11-15 c.go#1', 'a.go:21-25 a.go#2']);
  });

  it('a file without chunks still counts at file level, after the chunks', () => {
    const { results } = chunkList([file('a.ts', [0.8]), file('empty.ts', [])], 'relevance');
    expect(results.at(-1)).toEqual({ path: 'empty.ts' });
  });
});

describe('upToFiles (one-shot modes compared at ten files)', () => {
  const c = (path: string, line: number) => ({ path, startLine: line, endLine: line + 4 });
  const ranked = [c('a.ts', 1), c('a.ts', 10), c('b.ts', 1), c('c.ts', 1), c('b.ts', 20), c('d.ts', 1), c('a.ts', 30)];

  it('keeps every chunk up to the first chunk of the (n+1)-th distinct file', () => {
    expect(upToFiles(ranked, 3)).toEqual(ranked.slice(0, 5));
    expect(distinctPaths(upToFiles(ranked, 3))).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  it('keeps the whole list when it holds n files or fewer', () => {
    expect(upToFiles(ranked, 4)).toEqual(ranked);
    expect(upToFiles(ranked, 10)).toEqual(ranked);
    expect(upToFiles([], 10)).toEqual([]);
  });
});
