/**
 * Benchmark of discovery + chunking on one thread.
 * Usage: npx tsx scripts/bench-chunk.ts <root> [--max-tokens 256] [--max-file-bytes 1048576]
 * Prints files, MB, chunks, seconds, files/s and MB/s for discovery, chunking and both, and — as the ceiling of the
 * symbol chunker — tree-sitter's bare parse of the same TS/JS files (the C parser alone, nothing else).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import Parser from 'tree-sitter';
import { decodeSource, MultiLanguageChunker } from '../src/chunk/index.js';
import { TREE_SITTER_LANGUAGES } from '../src/chunk/languages/index.js';
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
  const parse = await bareParse(files);
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
      `parse only ${s(parse.ms)} s  ${(parse.bytes / (1024 * 1024) / (parse.ms / 1000)).toFixed(2)} MB/s  tree-sitter alone, ${parse.files} files, ${(parse.bytes / (1024 * 1024)).toFixed(2)} MB`,
    ].join('\n') + '\n',
  );
}

/** Time of tree-sitter's own parse of the files it handles, text already in memory (best of 3 passes). */
async function bareParse(files: ReadonlyArray<{ absPath: string; language: string }>): Promise<{ files: number; bytes: number; ms: number }> {
  const inputs: Array<{ parser: Parser; text: string; bytes: number }> = [];
  const parsers = new Map<string, Parser>();
  for (const file of files) {
    const spec = TREE_SITTER_LANGUAGES[file.language as keyof typeof TREE_SITTER_LANGUAGES];
    if (spec === undefined) continue;
    let parser = parsers.get(file.language);
    if (!parser) {
      parser = new Parser();
      parser.setLanguage(spec.grammar() as Parser.Language);
      parsers.set(file.language, parser);
    }
    const buf = await readFile(file.absPath);
    inputs.push({ parser, text: decodeSource(buf), bytes: buf.length });
  }
  let best = Infinity;
  for (let pass = 0; pass < 3; pass++) {
    const started = performance.now();
    // Same read callback as the chunker (the 0.21 binding fails on one string over 32 Ki chars).
    for (const { parser, text } of inputs) parser.parse((i: number) => text.slice(i, i + 16 * 1024));
    best = Math.min(best, performance.now() - started);
  }
  return { files: inputs.length, bytes: inputs.reduce((n, i) => n + i.bytes, 0), ms: best };
}

await main();
