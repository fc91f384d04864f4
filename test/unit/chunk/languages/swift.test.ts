import { beforeAll, describe, expect, it } from 'vitest';
import { MultiLanguageChunker } from '../../../../src/chunk/multi-language-chunker.js';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { swift } from '../../../../src/chunk/languages/swift.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const IMPORTS = /^import\s+[^\n]+$/gm;

describe('Swift symbol chunks (WASM grammar)', () => {
  const chunker = new TreeSitterChunker({ maxTokens: 256 });
  const content = readFixture('TokenStore.swift');
  beforeAll(() => chunker.prepare(['swift']));
  const chunk = () => chunker.chunk({ path: 'Sources/Auth/TokenStore.swift', language: 'swift', content });
  const byLine = (line: number) => chunk().chunks.find((c) => c.startLine === line)!;

  it('chunks types (extensions by the extended type), their methods and initialisers, protocols and top-level symbols', () => {
    const { chunks, warnings } = chunk();
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'const defaultLifetime - 4-5',
      'enum TokenError - 7-12',
      'interface TokenProvider - 14-19',
      'class Token - 21-26',
      'method init Token 28-32',
      'class TokenStore - 34-38',
      'method init TokenStore 40-43',
      'class TokenStore - 45-45',
      'method token TokenStore 47-56',
      'method signOut TokenStore 58-62',
      'method save TokenStore 64-68',
      'method query TokenStore 70-75',
      'class TokenStore - 77-78',
      'method inMemory TokenStore 80-83',
      'type TokenHandler - 85-85',
      'function bearerHeader - 87-89',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('glues /// docs and attributes, signatures start after attributes and stop before the body', () => {
    expect(byLine(34).text.startsWith('/// Keeps the token in the keychain and refreshes it through `refresh`.\nfinal class TokenStore: TokenProvider {')).toBe(true);
    expect(byLine(34).signature).toBe('final class TokenStore: TokenProvider');
    expect(byLine(58).text.startsWith('    @discardableResult\n    func signOut() -> Bool {')).toBe(true);
    expect(byLine(58).signature).toBe('func signOut() -> Bool');
    expect(byLine(47).text.startsWith('    // Returns the cached token, or asks the server for a new one.\n    func token()')).toBe(true);
    expect(byLine(47).embedText).toContain('// method TokenStore.token\n');
    expect(byLine(14).text).toContain('func token() async throws -> String');
    expect(byLine(77).signature).toBe('extension TokenStore: CustomStringConvertible');
    expect(byLine(21).text).toContain('var isExpired: Bool { expiresAt <= Date() }');
  });

  it('repeats the doc of a method split into parts (WASM nodes split like native ones)', () => {
    const long = `/// Loads every setting from disk.\nfunc load(path: String) -> Settings {\n${Array.from({ length: 120 }, (_, i) => `    let value${i} = readSetting(path, "key_${i}")`).join('\n')}\n    return Settings()\n}\n`;
    const small = new TreeSitterChunker({ maxTokens: 128 });
    return small.prepare(['swift']).then(() => {
      const parts = small.chunk({ path: 'Load.swift', language: 'swift', content: long }).chunks;
      expect(parts.length).toBeGreaterThan(1);
      expect(parts[1]!.embedText).toContain('// func load(path: String) -> Settings\n// Loads every setting from disk.\n');
    });
  });

  it('goes by lines, warning once, until prepare() has loaded the grammar; times out like a native parse', async () => {
    const fresh = new MultiLanguageChunker({ maxTokens: 256 });
    const before = fresh.chunk({ path: 'A.swift', language: 'swift', content });
    expect(before.warnings).toEqual([
      'A.swift: the swift grammar failed to load (its WASM grammar loads in prepare(), which was not awaited); this and every later swift file is cut into line windows',
    ]);
    expect(fresh.chunk({ path: 'B.swift', language: 'swift', content }).warnings).toEqual([]);
    await fresh.prepare(['swift', 'python']);
    expect(outline(fresh.chunk({ path: 'C.swift', language: 'swift', content }).chunks)[0]).toBe('const defaultLifetime - 4-5');
    const hasty = new TreeSitterChunker({ maxTokens: 256, parseTimeoutMs: 0 });
    await hasty.prepare(['swift']);
    expect(hasty.chunk({ path: 'D.swift', language: 'swift', content: content.repeat(20) }).warnings).toEqual(['D.swift: parse exceeded 0 ms; cut into line windows']);
  });

  it('says why when the WASM file cannot be loaded, and other languages keep working', async () => {
    const broken = { ...swift, wasm: () => '/nonexistent/tree-sitter-swift.wasm' };
    const chunker = new TreeSitterChunker({ maxTokens: 256, languages: { swift: broken } });
    await chunker.prepare(['swift']);
    const { warnings } = chunker.chunk({ path: 'E.swift', language: 'swift', content });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^E\.swift: the swift grammar failed to load \(.*nonexistent.*\); this and every later swift file is cut into line windows$/);
  });
});
