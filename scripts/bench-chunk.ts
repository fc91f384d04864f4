/**
 * Benchmark of discovery + chunking on one thread.
 * Usage: npx tsx scripts/bench-chunk.ts <root> [--max-tokens 256] [--max-file-bytes 1048576] [--passes 3]
 *                                       [--baseline <checkout>]
 * Prints files, MB, chunks and load averages, then one row per language: the chunker's MB/s, tree-sitter's bare
 * parse of the same files (the C parser alone: the ceiling of the symbol chunker; WASM for a language whose grammar
 * is WASM), and plain line windows over the same files (what every language but TS/JS got before). Each figure is
 * the best of `--passes` passes over the language's files, the variants interleaved within each pass so that load
 * from other processes falls on all of them alike.
 * `--baseline <checkout>` also runs the chunker of another checkout (its `src/chunk/index.ts`, e.g. a
 * `git worktree` of the commit before a change) in the same passes, and compares every file's chunks and warnings
 * with the current chunker's as JSON: any difference is listed and the exit code is 1.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Parser from 'tree-sitter';
import { chunkByLineWindows, decodeSource, MultiLanguageChunker, type Chunker } from '../src/chunk/index.js';
import { TREE_SITTER_LANGUAGES } from '../src/chunk/languages/index.js';
import { loadWasmParser } from '../src/chunk/wasm-grammar.js';
import { discoverFiles } from '../src/discover/index.js';
import type { Language } from '../src/types.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

function stringFlag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

interface Input {
  path: string;
  language: Language;
  content: string;
  bytes: number;
}

/** One way of processing a language's files; `run` returns nothing, only its time counts. */
interface Variant {
  readonly name: string;
  readonly run: (inputs: readonly Input[]) => void;
}

const loadAverage = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function main(): Promise<void> {
  const rootArg = process.argv[2];
  if (rootArg === undefined || rootArg.startsWith('--')) {
    process.stderr.write('usage: npx tsx scripts/bench-chunk.ts <root> [--max-tokens 256] [--max-file-bytes N] [--passes 3] [--baseline <checkout>]\n');
    process.exit(2);
  }
  const root = resolve(rootArg);
  const maxTokens = flag('--max-tokens', 256);
  const passes = flag('--passes', 3);
  const baselineDir = stringFlag('--baseline');
  const loadBefore = loadAverage();
  const t0 = performance.now();
  const { files, skipped } = await discoverFiles({ root, maxFileBytes: flag('--max-file-bytes', 1024 * 1024) });
  const discoverMs = performance.now() - t0;
  const inputs: Input[] = [];
  const r0 = performance.now();
  for (const file of files) {
    const buf = await readFile(file.absPath);
    inputs.push({ path: file.path, language: file.language, content: decodeSource(buf), bytes: buf.length });
  }
  const readMs = performance.now() - r0;
  const languages = [...new Set(inputs.map((i) => i.language))];
  const chunker = await readyChunker(new MultiLanguageChunker({ maxTokens }), languages);
  const baseline = baselineDir === undefined ? undefined : await readyChunker(await loadBaseline(baselineDir, maxTokens), languages);

  // Same output, file by file (the first, untimed pass; it also warms both chunkers' code paths).
  let chunks = 0;
  let warnings = 0;
  const differing: string[] = [];
  for (const input of inputs) {
    const result = chunker.chunk(input);
    chunks += result.chunks.length;
    warnings += result.warnings.length;
    if (baseline !== undefined && JSON.stringify(baseline.chunk(input)) !== JSON.stringify(result)) differing.push(input.path);
  }

  const rows: string[] = [];
  const totals = new Map<string, number>();
  const bytesOf = (list: readonly Input[]): number => list.reduce((n, i) => n + i.bytes, 0);
  const byLanguage = languages
    .map((language) => ({ language, list: inputs.filter((i) => i.language === language) }))
    .sort((a, b) => bytesOf(b.list) - bytesOf(a.list));
  for (const { language, list } of byLanguage) {
    const variants: Variant[] = [
      { name: 'chunk', run: (l) => l.forEach((i) => chunker.chunk(i)) },
      ...(baseline === undefined ? [] : [{ name: 'baseline', run: (l: readonly Input[]) => l.forEach((i) => baseline.chunk(i)) }]),
      ...(await bareParse(language)),
      { name: 'lines', run: (l) => l.forEach((i) => chunkByLineWindows(i, { maxTokens })) },
    ];
    const best = new Map<string, number>();
    for (let pass = 0; pass < passes; pass++) {
      // Rotate the order each pass, so no variant always runs first (or right after the heaviest).
      for (let k = 0; k < variants.length; k++) {
        const variant = variants[(k + pass) % variants.length]!;
        const started = performance.now();
        variant.run(list);
        const ms = performance.now() - started;
        best.set(variant.name, Math.min(best.get(variant.name) ?? Infinity, ms));
      }
    }
    for (const [name, ms] of best) totals.set(name, (totals.get(name) ?? 0) + ms);
    const bytes = bytesOf(list);
    const cell = (name: string): string => (best.has(name) ? rate(bytes, best.get(name)!) : '-');
    const symbols = list.reduce((n, i) => n + chunker.chunk(i).chunks.filter((c) => c.kind !== 'module' && c.kind !== 'text' && c.kind !== 'section').length, 0);
    const ratio = best.has('parse') ? (best.get('parse')! / best.get('chunk')!).toFixed(2) : '-';
    rows.push(
      `| ${language} | ${list.length} | ${(bytes / MB).toFixed(2)} | ${symbols} | ${cell('chunk')} | ${baseline === undefined ? '' : `${cell('baseline')} | `}${cell('parse')} | ${ratio} | ${cell('lines')} |`,
    );
  }
  const mb = bytesOf(inputs) / MB;
  const s = (ms: number): string => (ms / 1000).toFixed(2);
  const line = (label: string, ms: number, count = files.length, sizeMb = mb): string =>
    `${label.padEnd(10)} ${s(ms)} s  ${(count / (ms / 1000)).toFixed(0)} files/s  ${(sizeMb / (ms / 1000)).toFixed(2)} MB/s`;
  const parsed = inputs.filter((i) => TREE_SITTER_LANGUAGES[i.language] !== undefined);
  const out = [
    `root       ${root}`,
    `files      ${files.length} (skipped ${skipped.length})`,
    `size       ${mb.toFixed(2)} MB`,
    `chunks     ${chunks} (warnings ${warnings})`,
    `load       ${loadBefore} before, ${loadAverage()} after (1, 5, 15 min)`,
    line('discover', discoverMs),
    line('read', readMs),
    line('chunk', totals.get('chunk')!),
    ...(baseline === undefined ? [] : [line('baseline', totals.get('baseline')!), `same output ${inputs.length - differing.length}/${inputs.length} files`]),
    ...(totals.has('parse') ? [line('parse', totals.get('parse')!, parsed.length, bytesOf(parsed) / MB) + '  tree-sitter alone, files with a grammar'] : []),
    '',
    `best of ${passes} passes per language; chunk/parse = how close the chunker comes to the bare parse`,
    `| language | files | MB | symbol chunks | chunk MB/s | ${baseline === undefined ? '' : 'baseline chunk MB/s | '}parse-only MB/s | chunk/parse | line windows MB/s |`,
    `| --- | ---: | ---: | ---: | ---: | ${baseline === undefined ? '' : '---: | '}---: | ---: | ---: |`,
    ...rows,
  ];
  if (differing.length > 0) out.push('', `DIFFERENT OUTPUT from the baseline in ${differing.length} files, e.g.:`, ...differing.slice(0, 5).map((p) => `  ${p}`));
  process.stdout.write(out.join('\n') + '\n');
  if (differing.length > 0) process.exitCode = 1;
}

const MB = 1024 * 1024;

function rate(bytes: number, ms: number): string {
  return ms > 0 ? (bytes / MB / (ms / 1000)).toFixed(2) : '-';
}

/** The chunker with its WASM grammars loaded and every grammar warmed once, so no row carries a grammar's load. */
async function readyChunker(chunker: Chunker, languages: readonly Language[]): Promise<Chunker> {
  await chunker.prepare?.(languages);
  for (const language of languages) chunker.chunk({ path: `warm.${language}`, language, content: '\n' });
  return chunker;
}

/** Another checkout's MultiLanguageChunker (its TypeScript sources, loaded through tsx like this script's). */
async function loadBaseline(dir: string, maxTokens: number): Promise<Chunker> {
  const entry = pathToFileURL(join(resolve(dir), 'src', 'chunk', 'index.ts')).href;
  const mod = (await import(entry)) as { MultiLanguageChunker: new (o: { maxTokens: number }) => Chunker };
  return new mod.MultiLanguageChunker({ maxTokens });
}

/** tree-sitter's own parse of a language's files, text in memory (none without a grammar). */
async function bareParse(language: Language): Promise<Variant[]> {
  const spec = TREE_SITTER_LANGUAGES[language];
  if (spec === undefined) return [];
  if (spec.wasm !== undefined) {
    const wasm = await loadWasmParser(spec.wasm());
    return [{ name: 'parse', run: (l) => l.forEach(({ content }) => wasm.parse(content, 60_000)?.delete?.()) }];
  }
  const parser = new Parser();
  try {
    parser.setLanguage(spec.grammar() as Parser.Language);
  } catch {
    return [];
  }
  // Same read callback as the chunker.
  return [{ name: 'parse', run: (l) => l.forEach(({ content }) => parser.parse((i: number) => content.slice(i, i + 16 * 1024))) }];
}

await main();
