import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
/** `#include` lines and `using` declarations (not `using X = T`, a type alias) are dropped. */
const IMPORTS = /^\s*(?:#\s*include\s+[^\n]+|using\s+(?:namespace\s+)?[\w:]+;)$/gm;

describe('C++ symbol chunks', () => {
  const content = readFixture('lru_cache.cpp');
  const { chunks, warnings } = chunker.chunk({ path: 'src/lru_cache.cpp', language: 'cpp', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks namespaces, template classes with inline methods, out-of-line methods, nested types and free functions', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module lru_cache - 1-1',
      'namespace store - 9-9',
      'const kDefaultCapacity store 11-12',
      'type Key store 14-14',
      'enum Policy store 16-16',
      'class LruCache store 18-21',
      'method LruCache store.LruCache 22-22',
      'class LruCache store 23-27',
      'method size store.LruCache 29-29',
      'class LruCache store 31-31',
      'class Entry store.LruCache 32-35',
      'class LruCache store 36-39',
      'method ~LruCache store.LruCache 41-44',
      'method get store.LruCache 46-52',
      'namespace detail store 54-54',
      'function hash_key store.detail 55-58',
      'const misses - 60-62',
      'function operator== - 64-65',
      'class Stats - 67-70',
      'function hash_key store.detail 72-74',
      'function clamp - 76-79',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('keeps /// docs and the template header with the class, member declarations in the class chunk', () => {
    expect(byLine(18).text.startsWith('/// A least-recently-used cache of values keyed by string.\ntemplate <typename V>\nclass LruCache {\npublic:')).toBe(true);
    expect(byLine(18).signature).toBe('template <typename V> class LruCache');
    expect(byLine(23).text).toContain('/// Returns the cached value or nullptr.\n    const V *get(const Key &key);');
    expect(byLine(22).signature).toBe('explicit LruCache(size_t capacity = kDefaultCapacity) : capacity_(capacity)');
    expect(byLine(11).text.startsWith('/// Default number of entries kept.\nconstexpr size_t kDefaultCapacity')).toBe(true);
  });

  it('names out-of-line definitions by their class (in its namespace) and namespace-qualified ones as functions', () => {
    expect(byLine(46).signature).toBe('template <typename V> const V *LruCache<V>::get(const Key &key)');
    expect(byLine(46).embedText).toContain('// method store.LruCache.get\n');
    expect(byLine(41).symbol).toBe('~LruCache');
    expect(byLine(72).signature).toBe('int store::detail::hash_key(const Key &key)');
    // An anonymous namespace is walked through: its opening line leads into the first member, its brace closes the last.
    expect(byLine(60).text).toBe('namespace {\n// Counts cache misses for the stats page.\nint misses = 0;');
    expect(byLine(64).text.endsWith('}  // namespace')).toBe(true);
  });

  it('handles operators, defaulted members, specializations, nested namespaces and extern "C"', () => {
    const code = [
      'class Foo : public Bar {',
      'public:',
      '    Foo() = default;',
      '    operator bool() const { return ok_; }',
      '    using Bar::Bar;',
      '};',
      'Foo::operator bool() const { return true; }',
      'Foo &Foo::operator=(Foo &&other) noexcept { return *this; }',
      'template <> void Foo::visit<int>(int t) {}',
      'namespace a::b {',
      'void f();',
      '}',
      'extern "C" int c_api(void);',
      '',
    ].join('\n');
    const got = chunker.chunk({ path: 'odd.cpp', language: 'cpp', content: code }).chunks;
    expect(outline(got)).toEqual([
      'class Foo - 1-3',
      'method operator bool Foo 4-4',
      'class Foo - 5-6',
      'method operator bool Foo 7-7',
      'method operator= Foo 8-8',
      'method visit Foo 9-9',
      'namespace a.b - 10-10',
      'function f a.b 11-12',
      'function c_api - 13-13',
    ]);
    expect(got[0]!.text).toContain('Foo() = default;');
  });
});
