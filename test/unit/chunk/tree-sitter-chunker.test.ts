import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../src/chunk/tree-sitter-chunker.js';
import { estimateTokens } from '../../../src/chunk/token-estimate.js';
import { outline, readFixture, uncoveredLines } from './chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });

describe('TreeSitterChunker symbols', () => {
  it('chunks a class: header with fields, one chunk per method, overloads grouped, decorators and docs kept', () => {
    const content = readFixture('class-with-methods.ts');
    const { chunks, warnings } = chunker.chunk({ path: 'src/net/rate-limiter.ts', language: 'typescript', content });
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'class RateLimiter - 4-10',
      'method constructor RateLimiter 12-14',
      'method acquire RateLimiter 16-21',
      'method available RateLimiter 23-25',
      'method onTick RateLimiter 27-30',
      'function format - 32-36',
      'export default - 38-38',
    ]);
    expect(uncoveredLines(content, chunks)).toEqual([]);
    const header = chunks[0]!;
    expect(header.text.startsWith('/**\n * Limits how often a caller may act.\n */\n@Injectable()\nexport class RateLimiter')).toBe(true);
    expect(header.text.endsWith('@Inject() readonly clock!: Clock;')).toBe(true);
    expect(header.signature).toBe('export class RateLimiter<T extends object> extends Base implements Limiter');
    const acquire = chunks[2]!;
    expect(acquire.signature).toBe('acquire(count: number): Promise<void>');
    expect(acquire.embedText).toBe(`// path: src/net/rate-limiter.ts\n// method RateLimiter.acquire\n${acquire.text}`);
    // The cache key leaves out the path line, so a rename reuses the vector.
    expect(acquire.embedText.split('\n')[0]).toMatch(/^\/\/ path: /);
    expect(acquire.hash).toBe(createHash('sha256').update(acquire.embedText.slice(acquire.embedText.indexOf('\n') + 1)).digest('hex'));
    expect(acquire.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('chunks a TSX component, exported arrow functions and a named default export', () => {
    const content = readFixture('component.tsx');
    const { chunks } = chunker.chunk({ path: 'src/ui/component.tsx', language: 'tsx', content });
    expect(outline(chunks)).toEqual([
      'interface ButtonProps - 3-6',
      'function CounterButton - 8-20',
      'function App - 22-24',
    ]);
    expect(chunks[1]!.signature).toBe('export const CounterButton = ({ label, onClick }: ButtonProps)');
    expect(uncoveredLines(content, chunks)).toEqual([]);
  });

  it('chunks namespaces (members get the namespace as parent), enums, consts, merged tiny types and module code', () => {
    const content = readFixture('namespace-and-types.ts');
    const { chunks } = chunker.chunk({ path: 'src/namespace-and-types.ts', language: 'typescript', content });
    expect(outline(chunks)).toEqual([
      'type Id - 1-3',
      'namespace Geometry - 5-5',
      'const ORIGIN Geometry 6-6',
      'function distance Geometry 8-10',
      'interface Point Geometry 12-16',
      'enum Color - 18-21',
      'const handlers - 23-28',
      'function add - 30-30',
      'module namespace-and-types - 32-33',
      'function helper - 35-37',
    ]);
    // Merged tiny neighbours keep the first symbol; the header lists the others.
    expect(chunks[0]!.embedText.split('\n')[1]).toBe('// type Id (+ Name, Age)');
    expect(uncoveredLines(content, chunks)).toEqual([]);
  });

  it('still yields symbol chunks for a file with syntax errors', () => {
    const content = readFixture('syntax-errors.ts');
    const { chunks, warnings } = chunker.chunk({ path: 'src/syntax-errors.ts', language: 'typescript', content });
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual(['function broken - 1-5', 'module syntax-errors - 5-8', 'function fine - 10-10']);
    expect(uncoveredLines(content, chunks)).toEqual([]);
  });

  it('chunks JavaScript: generators, class expressions, exports.x = function, module code', () => {
    const content = [
      "'use strict';",
      'const gen = function* () {',
      '  yield 1;',
      '};',
      'const Store = class {',
      '  get(key) {',
      '    return key;',
      '  }',
      '};',
      'exports.run = function () {',
      '  return gen();',
      '};',
      'run();',
    ].join('\n');
    const { chunks } = chunker.chunk({ path: 'lib/store.cjs', language: 'javascript', content });
    expect(outline(chunks)).toEqual([
      'module store - 1-1',
      'function gen - 2-4',
      'class Store - 5-5',
      'method get Store 6-9',
      'function run - 10-12',
      'module store - 13-13',
    ]);
  });

  it('gives distinct ids to every chunk', () => {
    const content = 'class A { get x() { return 1; } set x(v) {} }\n';
    const { chunks } = chunker.chunk({ path: 'a.ts', language: 'typescript', content });
    expect(outline(chunks)).toEqual(['class A - 1-1', 'method x A 1-1', 'method x A 1-1']);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(3);
  });
});

describe('TreeSitterChunker size policy', () => {
  it('splits a huge function into parts at statement boundaries that keep symbol and stay in budget', () => {
    const content = readFixture('huge-function.ts');
    const maxTokens = 128;
    const { chunks } = new TreeSitterChunker({ maxTokens }).chunk({ path: 'src/huge.ts', language: 'typescript', content });
    const count = chunks.length;
    expect(count).toBeGreaterThan(5);
    chunks.forEach((c, index) => {
      expect(c.kind).toBe('function');
      expect(c.symbol).toBe('processRecords');
      expect(c.parent).toBe(null);
      expect(c.part).toEqual({ index, count });
      expect(estimateTokens(c.embedText)).toBeLessThanOrEqual(maxTokens);
    });
    expect(chunks[0]!.startLine).toBe(1);
    expect(chunks[count - 1]!.endLine).toBe(content.trimEnd().split('\n').length);
    for (let i = 1; i < count; i += 1) expect(chunks[i]!.startLine).toBe(chunks[i - 1]!.endLine + 1);
    // Later parts repeat signature and doc in the header, the first part has them in its code.
    expect(chunks[1]!.embedText.split('\n').slice(1, 4)).toEqual([
      `// function processRecords (part 2/${count})`,
      '// export function processRecords(records: Item[]): number',
      '// Processes many records.',
    ]);
    expect(uncoveredLines(content, chunks)).toEqual([]);
  });

  it('uses the injected token counter', () => {
    const content = readFixture('huge-function.ts');
    const lines = (s: string): number => s.split('\n').length;
    const { chunks } = new TreeSitterChunker({ maxTokens: 40, countTokens: lines }).chunk({ path: 'h.ts', language: 'typescript', content });
    for (const c of chunks) expect(lines(c.embedText)).toBeLessThanOrEqual(40);
  });
});
