import { describe, expect, it } from 'vitest';
import { LineWindowChunker } from '../../../src/chunk/line-window-chunker.js';
import { MarkdownChunker } from '../../../src/chunk/markdown-chunker.js';
import { MultiLanguageChunker } from '../../../src/chunk/multi-language-chunker.js';
import { estimateTokens } from '../../../src/chunk/token-estimate.js';
import { outline, readFixture, uncoveredLines } from './chunk-helpers.js';

describe('MarkdownChunker', () => {
  it('splits by ATX and setext headings, ignores headings in fences, names parents', () => {
    const content = readFixture('guide.md');
    const { chunks } = new MarkdownChunker({ maxTokens: 256 }).chunk({ path: 'docs/guide.md', language: 'markdown', content });
    expect(outline(chunks)).toEqual([
      'section guide - 1-4',
      'section Install - 6-13',
      'section Linux Install 15-17',
      'section macOS Install 19-21',
      'section Usage - 23-26',
    ]);
    expect(chunks[2]!.embedText.split('\n')[1]).toBe('// section Install > Linux');
    expect(chunks[1]!.text).toContain('# not a heading');
    expect(uncoveredLines(content, chunks)).toEqual([]);
  });

  it('splits a long section into parts within the budget', () => {
    const content = `# Big\n\n${Array.from({ length: 40 }, (_, i) => `Paragraph ${i} has some words in it.\n`).join('\n')}`;
    const { chunks } = new MarkdownChunker({ maxTokens: 64 }).chunk({ path: 'big.md', language: 'markdown', content });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.symbol).toBe('Big');
      expect(estimateTokens(c.embedText)).toBeLessThanOrEqual(64);
    }
    expect(uncoveredLines(content, chunks)).toEqual([]);
  });
});

describe('LineWindowChunker', () => {
  it('cuts text into overlapping windows that cover every line and fit the budget', () => {
    const content = Array.from({ length: 200 }, (_, i) => `key_${i}: value number ${i}`).join('\n');
    const { chunks } = new LineWindowChunker({ maxTokens: 64 }).chunk({ path: 'conf/app.yaml', language: 'text', content });
    expect(chunks[0]!.startLine).toBe(1);
    expect(chunks[chunks.length - 1]!.endLine).toBe(200);
    for (let i = 1; i < chunks.length; i += 1) {
      expect(chunks[i]!.startLine).toBeLessThanOrEqual(chunks[i - 1]!.endLine);
      expect(chunks[i]!.startLine).toBeGreaterThan(chunks[i - 1]!.startLine);
    }
    for (const c of chunks) {
      expect(c.kind).toBe('text');
      expect(c.symbol).toBe('app');
      expect(estimateTokens(c.embedText)).toBeLessThanOrEqual(64);
    }
    expect(uncoveredLines(content, chunks)).toEqual([]);
  });

  it('routes languages in MultiLanguageChunker', () => {
    const chunker = new MultiLanguageChunker({ maxTokens: 256 });
    expect(outline(chunker.chunk({ path: 'a.py', language: 'text', content: 'def f():\n    return 1\n' }).chunks)).toEqual(['text a - 1-2']);
    expect(outline(chunker.chunk({ path: 'a.md', language: 'markdown', content: '# T\nx\n' }).chunks)).toEqual(['section T - 1-2']);
    expect(outline(chunker.chunk({ path: 'a.jsx', language: 'jsx', content: 'export const A = () => <b/>;\n' }).chunks)).toEqual(['function A - 1-1']);
  });
});
