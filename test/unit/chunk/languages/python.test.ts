import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const IMPORTS = /^(?:from\s+\S+\s+import\s+[^\n]+|import\s+[^\n]+)$/gm;

describe('Python symbol chunks', () => {
  const content = readFixture('service.py');
  const { chunks, warnings } = chunker.chunk({ path: 'svc/service.py', language: 'python', content });

  it('chunks functions, classes, methods, nested classes, constants and module code; every non-import line covered', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module service - 1-1',
      'const DEFAULT_TIMEOUT - 8-9',
      'function retry - 12-26',
      'class Session - 29-38',
      'method url_for Session 40-42',
      'method send Session 44-49',
      'class Error Session 51-52',
      'method __init__ Session.Error 54-56',
      'function _transport - 59-60',
      'module service - 63-64',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('keeps decorators and leading comments with their definition, and signatures without the body', () => {
    const byName = new Map(chunks.map((c) => [c.symbol, c]));
    expect(byName.get('Session')!.text.startsWith('@dataclass\nclass Session:')).toBe(true);
    expect(byName.get('Session')!.signature).toBe('class Session');
    expect(byName.get('send')!.text.startsWith('    @retry(times=2)\n    def send(')).toBe(true);
    expect(byName.get('send')!.signature).toBe('def send(self, method: str, path: str) -> dict');
    expect(byName.get('url_for')!.text.startsWith('    # Builds the absolute address of a path.')).toBe(true);
    expect(byName.get('retry')!.signature).toBe('def retry(times: int = MAX_RETRIES) -> Callable');
    expect(byName.get('DEFAULT_TIMEOUT')!.embedText).toContain('const DEFAULT_TIMEOUT (+ MAX_RETRIES)');
  });

  it('keeps the docstring inside the chunk and repeats it in the header of later parts', () => {
    expect(chunks.find((c) => c.symbol === 'Session')!.text).toContain('"""A client session that keeps cookies between requests.');
    const long = `class Big:\n    """Holds many things for the cache."""\n\n    def fill(self):\n${Array.from({ length: 120 }, (_, i) => `        self.v${i} = compute_value_number_${i}(self, ${i})`).join('\n')}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'big.py', language: 'python', content: long }).chunks;
    const fill = parts.filter((c) => c.symbol === 'fill');
    expect(fill.length).toBeGreaterThan(1);
    expect(fill[1]!.embedText).toContain('// def fill(self)');
    const bigParts = parts.filter((c) => c.symbol === 'Big');
    expect(bigParts[0]!.text).toContain('Holds many things for the cache.');
  });

  it('reads a docstring as the doc of a method split into parts', () => {
    const long = `def load(path):\n    """Load the settings file from disk."""\n${Array.from({ length: 120 }, (_, i) => `    value_${i} = read_setting(path, "key_${i}")`).join('\n')}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'load.py', language: 'python', content: long }).chunks;
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[1]!.embedText).toContain('// Load the settings file from disk.');
  });
});

describe('a grammar that fails to load', () => {
  it('cuts that language into line windows with one warning, and other languages keep their symbols', async () => {
    const { python } = await import('../../../../src/chunk/languages/python.js');
    const { go } = await import('../../../../src/chunk/languages/go.js');
    const broken = { ...python, grammar: () => { throw new Error('Cannot find module tree-sitter-python.node'); } };
    const chunker = new TreeSitterChunker({ maxTokens: 256, languages: { python: broken, go } });
    const first = chunker.chunk({ path: 'a.py', language: 'python', content: 'def f():\n    return 1\n' });
    const second = chunker.chunk({ path: 'b.py', language: 'python', content: 'def g():\n    return 2\n' });
    expect(first.warnings).toEqual(['a.py: the python grammar failed to load (Cannot find module tree-sitter-python.node); this and every later python file is cut into line windows']);
    expect(second.warnings).toEqual([]);
    expect(second.chunks.map((c) => [c.kind, c.symbol])).toEqual([['text', 'b']]);
    expect(chunker.chunk({ path: 'c.go', language: 'go', content: 'package c\n\nfunc H() {}\n' }).chunks.map((c) => c.symbol)).toContain('H');
  });
});
