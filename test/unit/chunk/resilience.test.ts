import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MultiLanguageChunker } from '../../../src/chunk/multi-language-chunker.js';
import { TreeSitterChunker } from '../../../src/chunk/tree-sitter-chunker.js';
import type { Chunk, Language } from '../../../src/types.js';
import { outline, uncoveredLines } from './chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });

function expectWellFormed(content: string, chunks: readonly Chunk[]): void {
  const lineCount = content.split('\n').length;
  for (const c of chunks) {
    expect(c.text.trim()).not.toBe('');
    expect(c.startLine).toBeGreaterThanOrEqual(1);
    expect(c.endLine).toBeGreaterThanOrEqual(c.startLine);
    expect(c.endLine).toBeLessThanOrEqual(lineCount);
    expect(content).toContain(c.text);
  }
}

describe('chunker resilience', () => {
  it('counts CRLF lines once', () => {
    const content = 'export function a() {\r\n  return 1;\r\n}\r\n\r\nexport const b = 2;\r\n';
    const { chunks } = chunker.chunk({ path: 'crlf.ts', language: 'typescript', content });
    expect(outline(chunks)).toEqual(['function a - 1-3', 'const b - 5-5']);
    expect(chunks[0]!.text).toBe('export function a() {\r\n  return 1;\r\n}');
  });

  it('ignores a BOM left in the text', () => {
    const { chunks } = chunker.chunk({ path: 'bom.ts', language: 'typescript', content: '\uFEFFexport function a() {}\n' });
    expect(outline(chunks)).toEqual(['function a - 1-1']);
  });

  it('cuts a 5 MB single-line file into line windows with a warning', () => {
    const content = `var a=${'1+'.repeat(2_500_000)}1;`;
    const { chunks, warnings } = chunker.chunk({ path: 'big.js', language: 'javascript', content });
    expect(warnings).toEqual(['big.js: too long to parse (5000008 chars); cut into line windows']);
    expect(chunks.map((c) => c.text).join('')).toBe(content);
    expect(new Set(chunks.map((c) => `${c.kind} ${c.startLine}-${c.endLine}`))).toEqual(new Set(['text 1-1']));
  });

  it('handles extreme nesting without deep recursion', () => {
    const arrays = `const x = ${'['.repeat(20000)}${']'.repeat(20000)};`;
    const blocks = `function f() {${'if (a) {'.repeat(5000)}${'}'.repeat(5000)}}`;
    const spaces = 'namespace A {'.repeat(2000) + '}'.repeat(2000);
    const squash = (s: string): string => s.replace(/\s+/g, '');
    for (const content of [arrays, blocks, spaces]) {
      const { chunks } = chunker.chunk({ path: 'deep.ts', language: 'typescript', content });
      // Parts are contiguous; only whitespace at the cuts is trimmed.
      expect(squash(chunks.map((c) => c.text).join(''))).toBe(squash(content));
    }
  });

  it('falls back to line windows when the parse time budget is exceeded', () => {
    const content = Array.from({ length: 3000 }, (_, i) => `export function f${i}(a: number) { return a * ${i}; }`).join('\n');
    const { chunks, warnings } = new TreeSitterChunker({ maxTokens: 256, parseTimeoutMs: 0.001 }).chunk({ path: 't.ts', language: 'typescript', content });
    expect(warnings).toEqual(['t.ts: parse exceeded 0.001 ms; cut into line windows']);
    expect(uncoveredLines(content, chunks)).toEqual([]);
  });

  it('never throws on random or garbled input; chunks are non-empty and inside the file', () => {
    const multi = new MultiLanguageChunker({ maxTokens: 64 });
    const languages: Language[] = ['typescript', 'tsx', 'javascript', 'jsx', 'markdown', 'text'];
    const codeish = fc.array(
      fc.constantFrom('function f(', ') {', '}', 'class A {', '\n', '\r\n', ' ', '=>', '"', "'", '`', '/*', '*/', '//',
        '@d', 'export ', 'const x = ', '[', ']', '<div>', '</div>', '# H\n', '```\n', 'namespace N {', ';', '\uFEFF', '\u{1F600}'),
      { maxLength: 200 },
    ).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), codeish), fc.constantFrom(...languages), (content, language) => {
        const { chunks } = multi.chunk({ path: 'src/fuzz.ts', language, content });
        expectWellFormed(content, chunks);
        expect(uncoveredLines(content, chunks).filter((l) => !/^\s*import\b/.test(content.split('\n')[l - 1]!))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
