/** Phases of an index's life, each timed: fresh build, no-op update, one-file edit, search. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CodeIndex, SearchMode, UpdateReport } from '../../src/index.js';
import { RssSampler, summarize, timed, type Latency } from './measure.js';
import { randomWord, seededRandom } from './seeded.js';

/** What a full build into an empty cache cost. */
export interface BuildResult {
  readonly report: UpdateReport;
  /** Provisioning + loading the model, before the build starts (ms). */
  readonly modelLoadMs: number;
  /** update() wall time, model already loaded (ms). */
  readonly buildMs: number;
  /** CPU time of the same (ms). */
  readonly buildCpuMs: number;
  readonly peakRssBytes: number;
  /** From the start of update() to the first commit of chunks (the first file searchable by words), ms. */
  readonly firstWordsMs: number | null;
  /** From the start of update() to every file committed (all searchable by words; vectors follow), ms. */
  readonly allWordsMs: number | null;
  /** Catalog + HNSW file after the vectors were flushed. */
  readonly bytesOnDisk: number;
}

/** Loads the model, then builds the (empty) index with RSS sampled throughout, then flushes the vectors. */
export async function buildFresh(index: CodeIndex): Promise<BuildResult> {
  const load = await timed(() => index.embedder());
  const sampler = new RssSampler().start();
  let firstWordsMs: number | null = null;
  let allWordsMs: number | null = null;
  const started = performance.now();
  const build = await timed(() =>
    index.update({
      onProgress: (p) => {
        if (p.phase !== 'index') return;
        // A report with chunks waiting or embedded comes right after a commit of chunks.
        if (firstWordsMs === null && ((p.textsWaiting ?? 0) > 0 || p.chunksEmbedded > 0)) firstWordsMs = performance.now() - started;
        if (allWordsMs === null && p.filesTotal > 0 && p.filesDone === p.filesTotal) allWordsMs = performance.now() - started;
      },
    }),
  );
  await index.flush();
  const peakRssBytes = sampler.stop();
  return {
    report: build.value, modelLoadMs: load.ms, buildMs: build.ms, buildCpuMs: build.cpuMs, peakRssBytes, firstWordsMs, allWordsMs,
    bytesOnDisk: (await index.stats()).bytesOnDisk,
  };
}

/** A second update() with nothing changed (ms). */
export async function noopUpdate(index: CodeIndex): Promise<{ ms: number; report: UpdateReport }> {
  const { value, ms } = await timed(() => index.update());
  return { ms, report: value };
}

/** Result of appending one function to one file and updating, then restoring it. */
export interface EditResult {
  readonly path: string;
  readonly editMs: number;
  readonly edit: UpdateReport;
  readonly restoreMs: number;
  readonly restore: UpdateReport;
}

/**
 * Appends a new function to one (seeded) TypeScript/JavaScript file, runs update(), then writes the original
 * bytes back and runs update() again. Writes into the index's root: callers pass a copy of the corpus.
 */
export async function oneFileEdit(index: CodeIndex, seed: number): Promise<EditResult> {
  const random = seededRandom(seed);
  const code = (await index.store.catalog.listFiles()).filter((f) => /^(typescript|tsx|javascript|jsx)$/.test(f.language));
  const file = code[Math.floor(random() * code.length)];
  if (!file) throw new Error(`No TypeScript or JavaScript file in ${index.config.root} to edit.`);
  const abs = path.join(index.config.root, file.path);
  const original = await readFile(abs);
  const name = `benchAppended${randomWord(random, 8)}`;
  await writeFile(abs, Buffer.concat([original, Buffer.from(`\nexport function ${name}(items: number[]): number {\n  return items.reduce((sum, x) => sum + x, 0);\n}\n`)]));
  const edit = await timed(() => index.update());
  await writeFile(abs, original);
  const restore = await timed(() => index.update());
  return { path: file.path, editMs: edit.ms, edit: edit.value, restoreMs: restore.ms, restore: restore.value };
}

/** Latency of index.search over the queries in one mode, after a short warm-up (k = 10). */
export async function searchLatency(index: CodeIndex, queries: readonly string[], mode: SearchMode): Promise<Latency> {
  for (const q of queries.slice(0, 3)) await index.search(q, { k: 10, mode });
  const ms: number[] = [];
  for (const q of queries) ms.push((await timed(() => index.search(q, { k: 10, mode }))).ms);
  return summarize(ms);
}
