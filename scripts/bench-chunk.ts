/**
 * Benchmark of discovery + chunking on one thread.
 * Usage: npx tsx scripts/bench-chunk.ts <root> [--max-tokens 256] [--max-file-bytes 1048576]
 * Prints files, MB, chunks, seconds, files/s and MB/s for discovery, chunking and both, then one row per language:
 * the chunker's MB/s, tree-sitter's bare parse of the same files (the C parser alone: the ceiling of the symbol
 * chunker; WASM for a language whose grammar is WASM), and plain line windows over the same files (what every
 * language but TS/JS got before: the baseline).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import Parser from 'tree-sitter';
import { chunkByLineWindows, decodeSource, MultiLanguageChunker } from '../src/chunk/index.js';
import { TREE_SITTER_LANGUAGES } from '../src/chunk/languages/index.js';
import { loadWasmParser } from '../src/chunk/wasm-grammar.js';
import { discoverFiles } from '../src/discover/index.js';
import type { Language } from '../src/types.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

interface LanguageRow {
  files: number;
  bytes: number;
  chunks: number;
  symbols: number;
  chunkMs: number;
  linesMs: number;
  parseMs: number;
}

/** Best of three passes of `run` over the inputs, in ms. */
function bestOf3(run: () => void): number {
  let best = Infinity;
  for (let pass = 0; pass < 3; pass++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
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
  const inputs: Array<{ path: string; language: Language; content: string; bytes: number }> = [];
  let readMs = 0;
  for (const file of files) {
    const r0 = performance.now();
    const buf = await readFile(file.absPath);
    inputs.push({ path: file.path, language: file.language, content: decodeSource(buf), bytes: buf.length });
    readMs += performance.now() - r0;
  }
  // Load the WASM grammars and warm every grammar once, so a language's row does not carry its grammar's load time.
  await chunker.prepare([...new Set(inputs.map((i) => i.language))]);
  for (const language of new Set(inputs.map((i) => i.language))) chunker.chunk({ path: `warm.${language}`, language, content: '\n' });
  const rows = new Map<Language, LanguageRow>();
  let chunks = 0;
  let warnings = 0;
  let chunkMs = 0;
  for (const input of inputs) {
    const row = rows.get(input.language) ?? { files: 0, bytes: 0, chunks: 0, symbols: 0, chunkMs: 0, linesMs: 0, parseMs: 0 };
    const c0 = performance.now();
    const result = chunker.chunk(input);
    const ms = performance.now() - c0;
    const l0 = performance.now();
    chunkByLineWindows(input, { maxTokens });
    row.linesMs += performance.now() - l0;
    row.files += 1;
    row.bytes += input.bytes;
    row.chunks += result.chunks.length;
    row.symbols += result.chunks.filter((c) => c.kind !== 'module' && c.kind !== 'text' && c.kind !== 'section').length;
    row.chunkMs += ms;
    rows.set(input.language, row);
    chunkMs += ms;
    chunks += result.chunks.length;
    warnings += result.warnings.length;
  }
  for (const [language, row] of rows) row.parseMs = await bareParse(language, inputs.filter((i) => i.language === language));
  const t2 = performance.now();
  const mb = inputs.reduce((n, i) => n + i.bytes, 0) / (1024 * 1024);
  const s = (ms: number): string => (ms / 1000).toFixed(2);
  const rate = (bytes: number, ms: number): string => (ms > 0 ? (bytes / (1024 * 1024) / (ms / 1000)).toFixed(2) : '-');
  const line = (label: string, ms: number): string =>
    `${label.padEnd(10)} ${s(ms)} s  ${(files.length / (ms / 1000)).toFixed(0)} files/s  ${(mb / (ms / 1000)).toFixed(2)} MB/s`;
  const table = [
    '| language | files | MB | chunks | symbol chunks | chunk MB/s | parse-only MB/s | line windows MB/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...[...rows.entries()]
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .map(([language, r]) =>
        `| ${language} | ${r.files} | ${(r.bytes / (1024 * 1024)).toFixed(2)} | ${r.chunks} | ${r.symbols} | ${rate(r.bytes, r.chunkMs)} | ${r.parseMs >= 0 ? rate(r.bytes, r.parseMs) : '-'} | ${rate(r.bytes, r.linesMs)} |`),
  ];
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
      '',
      ...table,
    ].join('\n') + '\n',
  );
}

/** Time (best of 3) of tree-sitter's own parse of one language's files, text in memory; -1 without a grammar. */
async function bareParse(language: Language, inputs: ReadonlyArray<{ content: string }>): Promise<number> {
  const spec = TREE_SITTER_LANGUAGES[language];
  if (spec === undefined) return -1;
  if (spec.wasm !== undefined) {
    const wasm = await loadWasmParser(spec.wasm());
    return bestOf3(() => {
      for (const { content } of inputs) wasm.parse(content, 60_000)?.delete?.();
    });
  }
  const parser = new Parser();
  try {
    parser.setLanguage(spec.grammar() as Parser.Language);
  } catch {
    return -1;
  }
  // Same read callback as the chunker.
  return bestOf3(() => {
    for (const { content } of inputs) parser.parse((i: number) => content.slice(i, i + 16 * 1024));
  });
}

await main();
