import { describe, expect, it } from 'vitest';
import { codeLines, MAX_CODE_LINE_CHARS, mergeSplitParts } from '../../../src/cli/search-hits.js';
import type { Hit } from '../../../src/types.js';

function hit(o: Partial<Hit> & { startLine: number; endLine: number }): Hit {
  return { chunkId: `c${o.startLine}`, path: 'src/a.ts', symbol: 'big', kind: 'function', parent: null, signature: 'function big()', score: 0.03, text: `line ${o.startLine}`, ...o };
}

describe('mergeSplitParts', () => {
  it('merges the parts of one split symbol into one hit at the place of its best part', () => {
    const hits = [
      hit({ startLine: 41, endLine: 80, part: { index: 1, count: 3 }, score: 0.05, similarity: 0.7, text: 'second' }),
      hit({ startLine: 1, endLine: 9, symbol: 'other', score: 0.04 }),
      hit({ startLine: 1, endLine: 40, part: { index: 0, count: 3 }, score: 0.03, similarity: 0.6, text: 'first' }),
    ];
    const merged = mergeSplitParts(hits);
    expect(merged.map((h) => `${h.symbol}:${h.startLine}-${h.endLine}`)).toEqual(['big:1-80', 'other:1-9']);
    expect(merged[0]).toMatchObject({ score: 0.05, similarity: 0.7, text: 'first\nsecond', chunkId: 'c41' });
    expect(merged[0]!.part).toBeUndefined();
  });

  it('marks a gap between parts that are not adjacent, and keeps parts of other symbols or files apart', () => {
    const merged = mergeSplitParts([
      hit({ startLine: 1, endLine: 40, part: { index: 0, count: 3 }, text: 'first' }),
      hit({ startLine: 81, endLine: 99, part: { index: 2, count: 3 }, text: 'third' }),
      hit({ startLine: 1, endLine: 40, path: 'src/b.ts', part: { index: 0, count: 3 } }),
      hit({ startLine: 50, endLine: 60, symbol: 'big2', part: { index: 0, count: 2 } }),
    ]);
    expect(merged.map((h) => `${h.path}:${h.symbol}:${h.startLine}-${h.endLine}`)).toEqual(['src/a.ts:big:1-99', 'src/b.ts:big:1-40', 'src/a.ts:big2:50-60']);
    expect(merged[0]!.text).toBe('first\n...\nthird');
  });
});

describe('codeLines', () => {
  const text = '\n  /**\n   * Throttles requests.\n   */\n  export function throttle() {\n    return 1;\n  }\n\n';
  it('shows the first line that says something, trimmed', () => {
    expect(codeLines(text, { more: 0 })).toEqual(['* Throttles requests.']);
    expect(codeLines('(\n  a,\n)', { more: 0 })).toEqual(['a,']);
    expect(codeLines('\n \n', { more: 0 })).toEqual([]);
    expect(codeLines('x'.repeat(500), { more: 0 })).toEqual([`${'x'.repeat(MAX_CODE_LINE_CHARS - 1)}…`]);
  });

  it('with more lines, keeps their indentation less the common part; all shows the chunk from its first non-blank line', () => {
    expect(codeLines(text, { more: 3 })).toEqual([' * Throttles requests.', ' */', 'export function throttle() {', '  return 1;']);
    expect(codeLines(text, 'all')).toEqual(['/**', ' * Throttles requests.', ' */', 'export function throttle() {', '  return 1;', '}']);
  });
});
