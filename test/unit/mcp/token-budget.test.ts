import { describe, expect, it } from 'vitest';
import { estimateTokens, fitCodeToBudget, fitHitsToBudget, headWithin, MIN_PARTIAL_TOKENS } from '../../../src/mcp/token-budget.js';
import type { ResultChunk, ResultFile } from '../../../src/retrieve/retrieval-result.js';

function chunk(startLine: number, endLine: number, relevance: number): ResultChunk {
  return { symbol: `s${startLine}`, kind: 'function', parent: null, startLine, endLine, relevance };
}
function file(path: string, relevance: number, chunks: ResultChunk[]): ResultFile {
  return { path, relevance, reason: 'r', chunks, missingContext: [], cycle: 1, role: 'answer' };
}
/** Code of `lines` lines of 39 chars + newline: 10 tokens a line. */
const code = (lines: number): string => Array.from({ length: lines }, (_, i) => `line ${String(i).padStart(3, '0')} `.padEnd(39, 'x')).join('\n');
const textOf = (_path: string, c: ResultChunk): string => code(c.endLine - c.startLine + 1);
const attached = (files: ReadonlyArray<{ path: string; chunks: ReadonlyArray<{ startLine: number; text?: string }> }>): string[] =>
  files.flatMap((f) => f.chunks.filter((c) => c.text !== undefined).map((c) => `${f.path}:${c.startLine}`));

describe('estimateTokens', () => {
  it('is characters / 4, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });
});

describe('headWithin', () => {
  it('keeps whole first lines within the limit', () => {
    expect(headWithin('aaa\nbbb\nccc', 8)).toBe('aaa\nbbb');
    expect(headWithin('aaa\nbbb', 100)).toBe('aaa\nbbb');
    expect(headWithin('aaaaaaaa\nb', 4)).toBe('');
  });
});

describe('fitCodeToBudget', () => {
  const results = [file('a.ts', 0.9, [chunk(1, 10, 0.9), chunk(20, 29, 0.6)]), file('b.ts', 0.8, [chunk(1, 10, 0.8)])];
  const related = [file('c.ts', 0.5, [chunk(1, 10, 0.5)])];

  it('attaches everything when the budget allows', () => {
    const out = fitCodeToBudget({ results, related, budgetTokens: 10_000, textOf });
    expect(attached([...out.results, ...out.related])).toEqual(['a.ts:1', 'a.ts:20', 'b.ts:1', 'c.ts:1']);
    expect(out.tokensUsed).toBe(4 * estimateTokens(code(10)));
    expect(out.truncated).toBe(false);
  });

  it('fills every results chunk before related ones, even a related chunk that scores higher', () => {
    const weakTail = [file('a.ts', 0.9, [chunk(1, 10, 0.9), chunk(20, 29, 0.3)]), file('b.ts', 0.8, [chunk(1, 10, 0.8)])];
    const out = fitCodeToBudget({ results: weakTail, related, budgetTokens: 3 * estimateTokens(code(10)), textOf });
    expect(attached(out.results)).toEqual(['a.ts:1', 'a.ts:20', 'b.ts:1']);
    expect(attached(out.related)).toEqual([]);
    expect(out.truncated).toBe(true);
  });

  it('fills results by chunk relevance, and stops cutting under the partial minimum', () => {
    const out = fitCodeToBudget({ results, related, budgetTokens: 2 * estimateTokens(code(10)) + MIN_PARTIAL_TOKENS - 1, textOf });
    // a.ts:1 (0.9) and b.ts:1 (0.8) fit whole; a.ts:20 (0.6) would need cutting but fewer than the minimum remain.
    expect(attached(out.results)).toEqual(['a.ts:1', 'b.ts:1']);
    expect(attached(out.related)).toEqual([]);
    expect(out.truncated).toBe(true);
    expect(out.tokensUsed).toBe(2 * estimateTokens(code(10)));
  });

  it('cuts a chunk that does not fit to its first lines and marks it', () => {
    const big = [file('a.ts', 0.9, [chunk(1, 100, 0.9)])];
    const out = fitCodeToBudget({ results: big, related: [], budgetTokens: 100, textOf });
    const c = out.results[0]!.chunks[0]!;
    expect(c.textTruncated).toBe(true);
    expect(c.text!.split('\n')).toHaveLength(10);
    expect(out.tokensUsed).toBe(estimateTokens(c.text!));
    expect(out.tokensUsed).toBeLessThanOrEqual(100);
  });

  it('gives no code to a chunk inside a range already attached, and none at budget 0', () => {
    const nested = [file('a.ts', 0.9, [chunk(1, 30, 0.9), chunk(5, 10, 0.8)])];
    const out = fitCodeToBudget({ results: nested, related: [], budgetTokens: 10_000, textOf });
    expect(attached(out.results)).toEqual(['a.ts:1']);
    expect(out.truncated).toBe(false);
    const none = fitCodeToBudget({ results, related, budgetTokens: 0, textOf });
    expect(attached([...none.results, ...none.related])).toEqual([]);
    expect(none).toMatchObject({ tokensUsed: 0, truncated: true });
  });

  it('drops text the caller passed in and skips chunks whose code is unavailable', () => {
    const withText = [file('a.ts', 0.9, [{ ...chunk(1, 2, 0.9), text: 'stale' }])];
    const out = fitCodeToBudget({ results: withText, related: [], budgetTokens: 100, textOf: () => undefined });
    expect(out.results[0]!.chunks[0]).toEqual(chunk(1, 2, 0.9));
    expect(out).toMatchObject({ tokensUsed: 0, truncated: false });
  });
});

describe('fitHitsToBudget', () => {
  const hit = (path: string, startLine: number, endLine: number) => ({ path, startLine, endLine, text: code(endLine - startLine + 1) });
  const shown = (out: ReturnType<typeof fitHitsToBudget>): string[] => out.hits.map((h) => `${h.hit.path}:${h.hit.startLine}${h.text === undefined ? ' -' : h.textTruncated ? ' cut' : ''}`);

  it('gives code to the best hits first, cuts the one that no longer fits, and lets a later small one in', () => {
    const hits = [hit('a.ts', 1, 10), hit('b.ts', 1, 30), hit('c.ts', 1, 100), hit('d.ts', 1, 2)];
    const out = fitHitsToBudget(hits, 300);
    // a: 100 tokens; b: 300 do not fit in the 200 left, cut to 20 lines (200); nothing is left for c and d.
    expect(shown(out)).toEqual(['a.ts:1', 'b.ts:1 cut', 'c.ts:1 -', 'd.ts:1 -']);
    expect(out.hits[1]!.text!.split('\n')).toHaveLength(20);
    expect(out).toMatchObject({ tokensUsed: 300, truncated: true });
    expect(shown(fitHitsToBudget([hit('c.ts', 1, 100), hit('d.ts', 1, 2)], 25))).toEqual(['c.ts:1 -', 'd.ts:1']);
    expect(MIN_PARTIAL_TOKENS).toBeGreaterThan(25);
  });

  it('gives no code to a hit whose lines an earlier hit of the same file shows, and none at budget 0', () => {
    const out = fitHitsToBudget([hit('a.ts', 1, 30), hit('a.ts', 5, 10), hit('b.ts', 5, 10)], 10_000);
    expect(shown(out)).toEqual(['a.ts:1', 'a.ts:5 -', 'b.ts:5']);
    expect(out).toMatchObject({ tokensUsed: 360, truncated: false });
    expect(fitHitsToBudget([hit('a.ts', 1, 3)], 0)).toMatchObject({ hits: [{ hit: { path: 'a.ts' } }], tokensUsed: 0, truncated: true });
  });
});
