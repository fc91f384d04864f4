import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const IMPORTS = /^import\s+(?:\([^)]*\)|[^\n]+)$/gm;

describe('Go symbol chunks', () => {
  const content = readFixture('server.go');
  const { chunks, warnings } = chunker.chunk({ path: 'server/server.go', language: 'go', content });

  it('chunks functions, methods (parent = receiver type), structs, interfaces, types and const/var groups', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module server - 1-2',
      'const MaxBodyBytes - 9-15',
      'class User - 17-21',
      'interface Store - 23-26',
      'class Server - 28-32',
      'function NewServer - 34-39',
      'method ServeHTTP Server 41-44',
      'method handleUsers Server 46-53',
      'type Handler - 55-56',
      'class Cache - 58-61',
      'method Get Cache 63-67',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('keeps doc comments with their declaration and gives signatures without the body', () => {
    const serve = chunks.find((c) => c.symbol === 'ServeHTTP')!;
    expect(serve.text.startsWith('// ServeHTTP dispatches one request.\nfunc (s *Server) ServeHTTP(')).toBe(true);
    expect(serve.signature).toBe('func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request)');
    expect(serve.embedText).toContain('// method Server.ServeHTTP\n');
    expect(chunks.find((c) => c.symbol === 'Get')!.signature).toBe('func (c *Cache[K, V]) Get(key K) (V, bool)');
    expect(chunks.find((c) => c.symbol === 'User')!.signature).toBe('type User struct');
  });
});
