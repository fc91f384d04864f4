import { describe, expect, it } from 'vitest';
import { MAX_BARE_CHUNKS, MAX_REASON_CHARS, renderContextPack, type ContextPackView } from '../../../src/mcp/context-markdown.js';
import { fenced } from '../../../src/mcp/markdown.js';
import type { BudgetedChunk, BudgetedFile } from '../../../src/mcp/token-budget.js';
import type { CycleTrace } from '../../../src/retrieve/retrieval-result.js';

function chunk(startLine: number, endLine: number, text?: string): BudgetedChunk {
  return { symbol: `f${startLine}`, kind: 'function', parent: null, startLine, endLine, relevance: 0.8, ...(text === undefined ? {} : { text }) };
}
function file(path: string, o: Partial<BudgetedFile> = {}): BudgetedFile {
  return { path, relevance: 0.85, reason: 'function f1 matches throttle', chunks: [], missingContext: [], cycle: 1, role: 'answer', ...o };
}
const cycle: CycleTrace = {
  n: 1, query: { text: 'where are requests throttled', keywords: ['throttle'], patterns: [], excludes: [], focusAreas: [] },
  hits: 14, high: 1, newTerms: ['bucket'], excluded: [], gaps: ['definition of TokenBucket'], newFiles: 3, ms: 12,
};
const pack = (o: Partial<ContextPackView> = {}): ContextPackView => ({
  results: [], related: [], cycles: [cycle], stoppedBecause: 'enough', tokenBudget: 100, tokensUsed: 0, truncated: false, ...o,
});

describe('renderContextPack', () => {
  it('renders a heading per file (path, relevance, role, reason), then its chunks by line with fenced code', () => {
    const text = renderContextPack(
      pack({
        results: [file('src/net/throttle.ts', { chunks: [chunk(20, 30), chunk(1, 3, 'export function f1() {\n  return 1;\n}')], missingContext: ['definition of TokenBucket'] })],
        related: [file('src/util/bucket.ts', { relevance: 0.5, role: 'context', reason: 'defines TokenBucket', chunks: [chunk(5, 9, 'class B {}')] })],
        tokenBudget: 1000,
        tokensUsed: 12,
      }),
      { trace: false },
    );
    expect(text).toBe(
      [
        '1 file with relevance >= 0.7, 1 related (0.4-0.7); stopped (enough) after 1 cycle.',
        '# Results',
        '## src/net/throttle.ts  (0.85, answer: function f1 matches throttle)\nmissing: definition of TokenBucket\n- 1-3 function f1\n```ts\nexport function f1() {\n  return 1;\n}\n```\n- 20-30 function f20',
        '# Related',
        '## src/util/bucket.ts  (0.50, context: defines TokenBucket)\n- 5-9 function f5\n```ts\nclass B {}\n```',
      ].join('\n\n'),
    );
  });

  it('shows the cycle trace only when asked', () => {
    const quiet = renderContextPack(pack(), { trace: false });
    expect(quiet).toBe('No file reached the high-relevance band (0.7), 0 related (0.4-0.7); stopped (enough) after 1 cycle.');
    const traced = renderContextPack(pack(), { trace: true });
    expect(traced).toBe(
      `${quiet}\n\n# Cycles\n1. where are requests throttled: 14 hits, 3 new files, 1 high, 12 ms\n   keywords: throttle\n   learned: bucket\n   gaps: definition of TokenBucket`,
    );
  });

  it('keeps the overhead of a file bounded: long reasons clipped, chunks without code counted past a few', () => {
    const many = Array.from({ length: 40 }, (_, i) => chunk(i * 10 + 1, i * 10 + 9));
    const text = renderContextPack(pack({ results: [file('a.ts', { reason: 'x '.repeat(5000), chunks: many })], truncated: true, tokenBudget: 4000 }), { trace: false });
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('- '))).toEqual(['- 1-9 function f1', '- 11-19 function f11', '- 21-29 function f21', '- 31-39 function f31', `- and ${40 - MAX_BARE_CHUNKS} more chunks`]);
    const heading = lines.find((l) => l.startsWith('## a.ts'))!;
    expect(heading.length).toBeLessThanOrEqual('## a.ts  (0.85, answer: )'.length + MAX_REASON_CHARS);
    expect(heading.endsWith('…)')).toBe(true);
    expect(lines.at(-1)).toBe('Left out to fit tokenBudget 4000: some code; a larger tokenBudget shows more.');
  });

  it('marks a chunk cut to its first lines, and a path with a newline cannot forge a heading', () => {
    const text = renderContextPack(pack({ results: [file('evil\n## fake.ts', { chunks: [{ ...chunk(1, 50, 'a'), textTruncated: true }] })] }), { trace: false });
    expect(text).toContain('## evil\\u000a## fake.ts  (0.85');
    expect(text).toContain('- 1-50 function f1 (first lines)\n```ts\na\n```');
  });
});

describe('renderContextPack within tokenBudget (issue 15: the whole text fits, not only the code)', () => {
  const code = (name: string, lines: number): string => Array.from({ length: lines }, (_, i) => `  const ${name}${i} = ${i}; // line ${i + 1}`).join('\n');
  const best = file('src/net/throttle.ts', { reason: 'r'.repeat(150), missingContext: ['definition of TokenBucket'], chunks: [chunk(1, 40, code('a', 40)), chunk(50, 60, code('b', 11))] });
  const others = ['src/a.ts', 'src/b.ts', 'src/c.ts'].map((p) => file(p, { relevance: 0.75, chunks: [chunk(1, 30, code('c', 30))] }));
  const related = [file('src/util/bucket.ts', { relevance: 0.5, role: 'context', chunks: [chunk(5, 9, code('d', 5))] })];
  const big = (tokenBudget: number, trace = false): string => renderContextPack(pack({ results: [best, ...others], related, tokenBudget, tokensUsed: 900 }), { trace });

  it.each([0, 40, 150, 300, 1000, 2000])('at tokenBudget %i the text is at most budget * 4 characters (0 and 40: the best heading alone may exceed)', (budget) => {
    const text = big(budget);
    expect(text).toContain('\n## src/net/throttle.ts  (0.85, answer');
    if (budget >= 150) expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(budget);
  });

  it('at a small budget: the best file with the first lines of its best chunk; lower files, reasons and other code left out, and said so', () => {
    const text = big(150);
    const lines = text.split('\n');
    expect(lines[0]).toBe('4 files with relevance >= 0.7, 1 related (0.4-0.7); stopped (enough) after 1 cycle.');
    expect(text).toContain('\n## src/net/throttle.ts  (0.85, answer)\n- 1-40 function f1 (first lines)\n```ts\n  const a0 = 0; // line 1\n');
    expect(text).not.toContain('## src/a.ts');
    expect(text).not.toContain('missing:');
    expect(lines.at(-1)).toBe('Left out to fit tokenBudget 150: 4 of 5 files, code of 2 chunks, 1 reason; a larger tokenBudget shows more.');
  });

  it('a larger budget buys the other files before their code and their code before reasons', () => {
    const text = big(500);
    expect(text.match(/^## /gm)).toHaveLength(5);
    expect(text).toContain('## src/net/throttle.ts  (0.85, answer)\n- 1-40 function f1\n```ts\n');
    expect(text).not.toContain('rrrr');
    expect(text.split('\n').at(-1)).toMatch(/^Left out to fit tokenBudget 500: code of \d chunks, 5 reasons; a larger tokenBudget shows more\.$/);
    expect(big(100_000)).toContain(`## src/net/throttle.ts  (0.85, answer: ${'r'.repeat(150)})\nmissing: definition of TokenBucket\n`);
    expect(big(100_000)).not.toContain('Left out');
  });

  it('the trace, when asked for, comes right after the best file\'s heading; left out, it is named', () => {
    expect(big(150, true)).toContain('\n\n# Cycles\n1. where are requests throttled: ');
    expect(Math.ceil(big(150, true).length / 4)).toBeLessThanOrEqual(150);
    expect(big(60, true).split('\n').at(-1)).toBe('Left out to fit tokenBudget 60: 4 of 5 files, code of 2 chunks, 1 reason, the trace; a larger tokenBudget shows more.');
  });
});

describe('fenced', () => {
  it('uses a fence longer than any run of backticks in the code', () => {
    expect(fenced('a', 'ts')).toBe('```ts\na\n```');
    expect(fenced('```md\nx\n```')).toBe('````\n```md\nx\n```\n````');
  });
});

describe('renderContextPack, parts of a split symbol', () => {
  it('lists neighbouring chunks of one symbol without code as one range', () => {
    const parts = [chunk(32, 41), chunk(42, 50), chunk(52, 65)].map((c) => ({ ...c, symbol: 'createThrottle' }));
    const text = renderContextPack(pack({ results: [file('a.ts', { chunks: [...parts, { ...chunk(70, 72, 'x'), symbol: 'createThrottle' }, chunk(80, 90)] })] }), { trace: false });
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toEqual(['- 32-65 function createThrottle', '- 70-72 function createThrottle', '- 80-90 function f80']);
  });
});
