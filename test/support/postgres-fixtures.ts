import { createHash } from 'node:crypto';
import { lexicalTermsFor } from '../../src/indexer/lexical-terms.js';
import type { ChunkInput, ReplaceFileInput } from '../../src/store/catalog-types.js';
import { PostgresCatalog } from '../../src/store/postgres/postgres-catalog.js';
import type { Language } from '../../src/types.js';

/** Dimension of the test vectors: small, so every expected neighbour is easy to reason about. */
export const DIMS = 4;
export const REVISION = 'rev-test';
export const IDENTITY = { model: 'test-model', dimension: DIMS, revision: REVISION } as const;

/** A unit vector along the given components. */
export function unit(...values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (x) => x / norm);
}

/** sha256 of a text, as the chunker keys the embedding cache. */
export function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A chunk with its lexical terms from the indexer's own `lexicalTermsFor`. */
export function chunk(symbol: string, text: string, startLine = 1, overrides: Partial<ChunkInput> = {}): ChunkInput {
  const base = { symbol, text, parent: null, signature: `function ${symbol}()` };
  return {
    id: `${symbol}:${startLine}`, kind: 'function', startLine, endLine: startLine + text.split('\n').length - 1,
    hash: hashOf(text), lexicalTerms: lexicalTermsFor(base), ...base, ...overrides,
  };
}

/** A replaceFile input: each chunk's vector is given (a new embedding) unless `cached` says it is in the cache already. */
export function fileInput(path: string, chunks: ReadonlyArray<{ chunk: ChunkInput; vector?: Float32Array }>, language: Language = 'typescript'): ReplaceFileInput {
  const vectors = new Map<string, Float32Array>();
  for (const c of chunks) if (c.vector !== undefined) vectors.set(c.chunk.hash, c.vector);
  return {
    path, size: 100, mtimeMs: 1_700_000_000_000, contentHash: hashOf(path + chunks.map((c) => c.chunk.text).join()),
    language, chunks: chunks.map((c) => c.chunk), vectors, revision: REVISION,
  };
}

/** Opens a writer of `repo@ref` with the test model recorded. */
export async function openWriter(connectionString: string, ref = 'main', repo = 'acme/shop'): Promise<PostgresCatalog> {
  const catalog = await PostgresCatalog.open({ connectionString, repo, ref, mode: 'write' });
  await catalog.initManifest({ ...IDENTITY, root: `/src/${repo}` });
  return catalog;
}
