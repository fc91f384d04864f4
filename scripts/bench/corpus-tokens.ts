/**
 * The tokens a build feeds the model, for a build's tokens/s: chunks a corpus as this checkout's indexer does and
 * tokenises each distinct text (by chunk hash, as the embedding cache dedupes) with [CLS]/[SEP], truncated.
 * Usage: npx tsx scripts/bench/corpus-tokens.ts <root>   (prints one JSON line; copy it into an older checkout to compare)
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodeSource, MultiLanguageChunker } from '../../src/chunk/index.js';
import { discoverFiles } from '../../src/discover/index.js';
import { openIndex } from '../../src/index.js';

const root = path.resolve(process.argv[2]!);
const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench17-tok-'));
const index = await openIndex({ root: tmp, cacheDir: path.join(tmp, 'cache'), offline: true });
const embedder = (await index.embedder()) as unknown as { tokenize(t: string): number[] };
const spec = index.config.model as unknown as { maxTokens: number; documentPrefix?: string };
const chunker = new MultiLanguageChunker({ maxTokens: spec.maxTokens }) as MultiLanguageChunker & { prepare?(l: string[]): Promise<void> };
const { files } = await discoverFiles({ root });
await chunker.prepare?.([...new Set(files.map((f) => f.language))]);
const seen = new Set<string>();
let chunks = 0, distinct = 0, tokens = 0, tokensAll = 0;
for (const f of files) {
  const content = decodeSource(await readFile(f.absPath));
  for (const c of chunker.chunk({ path: f.path, language: f.language, content } as never).chunks) {
    chunks++;
    const n = embedder.tokenize((spec.documentPrefix ?? '') + c.embedText).length;
    tokensAll += n;
    if (seen.has(c.hash)) continue;
    seen.add(c.hash); distinct++; tokens += n;
  }
}
await index.close();
console.log(JSON.stringify({ root, files: files.length, chunks, distinct, tokensDistinct: tokens, tokensAll, meanTokens: +(tokens / distinct).toFixed(1) }));
