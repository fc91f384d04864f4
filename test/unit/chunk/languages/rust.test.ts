import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const IMPORTS = /^\s*(?:pub\s+)?(?:use\s[^;]*;|extern\s+crate\s[^;]*;)$/gm;

describe('Rust symbol chunks', () => {
  const content = readFixture('cache.rs');
  const { chunks, warnings } = chunker.chunk({ path: 'src/cache.rs', language: 'rust', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks fns, impl blocks (named by their type), traits, structs, enums, consts, macros and inline mods', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module cache - 1-2',
      'const DEFAULT_TTL - 9-11',
      'type Key - 13-14',
      'class Entry - 16-21',
      'enum CacheError - 23-28',
      'interface Evict - 30-33',
      'method should_evict Evict 35-38',
      'class Cache - 40-43',
      'class Cache - 45-46',
      'method new Cache 48-51',
      'method get Cache 53-61',
      'class CacheError - 63-63',
      'method fmt CacheError 64-70',
      'function square - 72-77',
      'module cache - 79-79',
      'namespace tests - 81-83',
      'function missing_key_is_an_error tests 85-90',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('keeps attributes and doc comments with their item, and gives signatures without the body', () => {
    expect(byLine(16).text.startsWith('/// One cached value and when it expires.\n#[derive(Debug, Clone, PartialEq)]\npub struct Entry<V> {')).toBe(true);
    expect(byLine(16).signature).toBe('pub struct Entry<V>');
    expect(byLine(45).signature).toBe('impl<V: Clone> Cache<V>');
    expect(byLine(45).text).toContain('const SHARDS: usize = 16;');
    expect(byLine(63).signature).toBe('impl fmt::Display for CacheError');
    expect(byLine(64).signature).toBe("fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result");
    expect(byLine(53).text.startsWith('    /// The value under `key`, unless it expired.\n    pub fn get(')).toBe(true);
    expect(byLine(53).embedText).toContain('// method Cache.get\n');
    expect(byLine(85).text.startsWith('    #[test]\n    fn missing_key_is_an_error() {')).toBe(true);
    expect(byLine(30).text).toContain('fn size(&self) -> usize;');
    expect(byLine(72).signature).toBe('macro_rules! square');
    expect(byLine(1).text).toContain('#![allow(dead_code)]');
  });

  it('reads /// doc comments as the doc repeated in the header of later parts', () => {
    const long = `/// Loads every setting from disk.\n#[inline(never)]\npub fn load(path: &str) -> Settings {\n${Array.from({ length: 120 }, (_, i) => `    let value_${i} = read_setting(path, "key_${i}");`).join('\n')}\n    Settings::default()\n}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'load.rs', language: 'rust', content: long }).chunks;
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]!.text.startsWith('/// Loads every setting from disk.\n#[inline(never)]\npub fn load(')).toBe(true);
    expect(parts[1]!.embedText).toContain('// pub fn load(path: &str) -> Settings\n// Loads every setting from disk.\n');
  });
});
