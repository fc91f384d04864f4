import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChunkInput, ReplaceFileInput } from '../../../src/store/catalog-types.js';
import { identifierTerms } from '../../../src/chunk/identifiers.js';
import { seededRandom } from '../../../src/retrieve/seeded-random.js';

export { seededRandom };

/** A fresh temp directory per test; `cleanup()` removes every one made so far. */
export function makeTempDirs(): { make(): string; cleanup(): void } {
  const dirs: string[] = [];
  return {
    make() {
      const dir = mkdtempSync(join(tmpdir(), 'codescout-store-'));
      dirs.push(dir);
      return dir;
    },
    cleanup() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A random unit vector of `dimension` floats. */
export function unitVector(random: () => number, dimension: number): Float32Array {
  const v = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) v[i] = random() * 2 - 1;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Cosine similarity of two vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

/** A chunk whose hash is derived from its text, symbol and kind (like the chunker's embed-text hash). */
export function chunk(symbol: string, text: string, startLine: number, overrides: Partial<ChunkInput> = {}): ChunkInput {
  return {
    id: `key:${symbol}:${startLine}`, kind: 'function', symbol, parent: null, signature: `function ${symbol}()`,
    startLine, endLine: startLine + text.split('\n').length - 1, text, hash: `hash:${symbol}:${text}`,
    lexicalTerms: identifierTerms(`${symbol} ${text}`).join(' '), ...overrides,
  };
}

/** Deterministic vector for a chunk hash (a FakeEmbedder in one line). */
export function vectorFor(hash: string, dimension = 4): Float32Array {
  let seed = 0;
  for (const ch of hash) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) >>> 0;
  return unitVector(seededRandom(seed), dimension);
}

/** A replaceFile input for `path` whose vectors are all supplied (as if freshly embedded). */
export function fileInput(path: string, chunks: ChunkInput[], options: { dimension?: number; withVectors?: boolean } = {}): ReplaceFileInput {
  const withVectors = options.withVectors ?? true;
  return {
    path, size: chunks.reduce((n, c) => n + c.text.length, 0), mtimeMs: 1000, contentHash: `content:${path}`,
    language: 'typescript', chunks, revision: 'rev1',
    vectors: new Map(withVectors ? chunks.map((c) => [c.hash, vectorFor(c.hash, options.dimension)]) : []),
  };
}
