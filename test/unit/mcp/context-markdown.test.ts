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
        tokensUsed: 12,
      }),
      { trace: false },
    );
    expect(text).toBe(
      [
        '1 file with relevance >= 0.7, 1 related (0.4-0.7); stopped (enough) after 1 cycle. Code: 12 of 100 tokens.',
        '# Results',
        '## src/net/throttle.ts  (0.85, answer: function f1 matches throttle)\nmissing: definition of TokenBucket\n- 1-3 function f1\n```ts\nexport function f1() {\n  return 1;\n}\n```\n- 20-30 function f20',
        '# Related',
        '## src/util/bucket.ts  (0.50, context: defines TokenBucket)\n- 5-9 function f5\n```ts\nclass B {}\n```',
      ].join('\n\n'),
    );
  });

  it('shows the cycle trace only when asked', () => {
    const quiet = renderContextPack(pack(), { trace: false });
    expect(quiet).toBe('No file reached the high-relevance band (0.7), 0 related (0.4-0.7); stopped (enough) after 1 cycle. Code: 0 of 100 tokens.');
    const traced = renderContextPack(pack(), { trace: true });
    expect(traced).toBe(
      `${quiet}\n\n# Cycles\n1. where are requests throttled: 14 hits, 3 new files, 1 high, 12 ms\n   keywords: throttle\n   learned: bucket\n   gaps: definition of TokenBucket`,
    );
  });

  it('keeps the overhead of a file bounded: long reasons clipped, chunks without code counted past a few', () => {
    const many = Array.from({ length: 40 }, (_, i) => chunk(i * 10 + 1, i * 10 + 9));
    const text = renderContextPack(pack({ results: [file('a.ts', { reason: 'x '.repeat(5000), chunks: many })], truncated: true }), { trace: false });
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('- '))).toEqual(['- 1-9 function f1', '- 11-19 function f11', '- 21-29 function f21', '- 31-39 function f31', `- and ${40 - MAX_BARE_CHUNKS} more chunks`]);
    const heading = lines.find((l) => l.startsWith('## a.ts'))!;
    expect(heading.length).toBeLessThanOrEqual('## a.ts  (0.85, answer: )'.length + MAX_REASON_CHARS);
    expect(heading.endsWith('…)')).toBe(true);
    expect(lines[0]).toContain('some chunks were cut or left out to fit (a larger tokenBudget shows more)');
  });

  it('marks a chunk cut to its first lines, and a path with a newline cannot forge a heading', () => {
    const text = renderContextPack(pack({ results: [file('evil\n## fake.ts', { chunks: [{ ...chunk(1, 50, 'a'), textTruncated: true }] })] }), { trace: false });
    expect(text).toContain('## evil\\u000a## fake.ts  (0.85');
    expect(text).toContain('- 1-50 function f1 (first lines)\n```ts\na\n```');
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
