/**
 * Benchmark of discovery + chunking on one thread.
 * Usage: npx tsx scripts/bench-chunk.ts <root> [--max-tokens 256] [--max-file-bytes 1048576]
 * Prints files, MB, chunks, seconds, files/s and MB/s for discovery, chunking and both.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { decodeSource, MultiLanguageChunker } from '../src/chunk/index.js';
import { discoverFiles } from '../src/discover/index.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

async function main(): Promise<void> {
  const rootArg = process.argv[2];
  if (rootArg === undefined || rootArg.startsWith('--')) {
    process.stderr.write('usage: npx tsx scripts/bench-chunk.ts <root> [--max-tokens 256] [--max-file-bytes N]\n');
    process.exit(2);
  }
  const root = resolve(rootArg);
  const maxTokens = flag('--max-tokens', 256);
  const t0 = performance.now();
  const { files, skipped } = await discoverFiles({ root, maxFileBytes: flag('--max-file-bytes', 1024 * 1024) });
  const t1 = performance.now();
  const chunker = new MultiLanguageChunker({ maxTokens });
  let bytes = 0;
  let chunks = 0;
  let warnings = 0;
  let readMs = 0;
  let chunkMs = 0;
  for (const file of files) {
    const r0 = performance.now();
    const buf = await readFile(file.absPath);
    const content = decodeSource(buf);
    const r1 = performance.now();
    const result = chunker.chunk({ path: file.path, language: file.language, content });
    chunkMs += performance.now() - r1;
    readMs += r1 - r0;
    bytes += buf.length;
    chunks += result.chunks.length;
    warnings += result.warnings.length;
  }
  const t2 = performance.now();
  const mb = bytes / (1024 * 1024);
  const s = (ms: number): string => (ms / 1000).toFixed(2);
  const line = (label: string, ms: number): string =>
    `${label.padEnd(10)} ${s(ms)} s  ${(files.length / (ms / 1000)).toFixed(0)} files/s  ${(mb / (ms / 1000)).toFixed(2)} MB/s`;
  process.stdout.write(
    [
      `root       ${root}`,
      `files      ${files.length} (skipped ${skipped.length})`,
      `size       ${mb.toFixed(2)} MB`,
      `chunks     ${chunks} (warnings ${warnings})`,
      line('discover', t1 - t0),
      line('read', readMs),
      line('chunk', chunkMs),
      line('total', t2 - t0),
    ].join('\n') + '\n',
  );
}

await main();
