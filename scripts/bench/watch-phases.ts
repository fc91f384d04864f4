/** Save-to-searchable latency through the file watcher, and a many-file "branch switch". */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CodeIndex, SearchMode } from '../../src/index.js';
import type { IndexWatcher, WatchBatch } from '../../src/watch/watch-index.js';
import { pollUntil, summarize, type Latency } from './measure.js';
import { randomWord, seededRandom, shuffled } from './seeded.js';

/** A line that opens a function body: `) {`, `): T {`, `=> {`. Object literals in signatures do not match. */
const BODY_OPEN = /(\)|=>)[^()]*\{\s*$/;
const CODE_LANGUAGE = /^(typescript|tsx|javascript|jsx)$/;
const execFileAsync = promisify(execFile);

/** One edit that did not become searchable in time, or took long. */
export interface SlowEdit {
  readonly path: string;
  readonly mode: SearchMode;
  readonly ms: number | null;
}

/** Write -> searchable latencies of sequential single-function edits. */
export interface SaveLatency {
  readonly lexical: Latency;
  readonly hybrid: Latency;
  /** Time the watcher spent applying each edit's batch (ms). */
  readonly apply: Latency;
  /** Edits over `slowMs`, or never found (ms null). */
  readonly slow: readonly SlowEdit[];
  readonly errors: readonly string[];
}

/**
 * Inserts `const <probe> = i;` into one randomly chosen function body per edit, writes the file and polls
 * search for the probe until a hit inside that file appears: first lexical, then hybrid (which can only
 * see a chunk once it is in the catalog, so it never beats lexical). Waits for the watcher to go idle
 * between edits. Writes into the index's root: callers pass a copy of the corpus.
 */
export async function saveToSearchable(
  index: CodeIndex,
  watcher: IndexWatcher,
  o: { edits: number; seed: number; timeoutMs: number; slowMs: number },
): Promise<SaveLatency> {
  const random = seededRandom(o.seed);
  const batches: WatchBatch[] = [];
  const errors: string[] = [];
  const onBatch = (b: WatchBatch): void => void batches.push(b);
  const onError = (e: Error): void => void errors.push(e.message);
  watcher.on('updated', onBatch).on('error', onError);
  const lexical: number[] = [];
  const hybrid: number[] = [];
  const apply: number[] = [];
  const slow: SlowEdit[] = [];
  try {
    for (let i = 0; i < o.edits; i++) {
      const target = await pickFunction(index, random);
      // One lower-case word: a compound like benchProbeXyz would share `bench`/`probe` with every earlier
      // probe, and reciprocal-rank fusion then ranks those (present in both lists) above the new one.
      const probe = `zq${randomWord(random, 10)}`;
      const lines = target.content.split('\n');
      const indent = /^\s*/.exec(lines[target.line + 1] ?? '')?.[0] || '  ';
      lines.splice(target.line + 1, 0, `${indent}const ${probe} = ${i}; void ${probe};`);
      const seenBatches = batches.length;
      const t0 = performance.now();
      await writeFile(path.join(index.config.root, target.path), lines.join('\n'));
      const found = async (mode: SearchMode): Promise<boolean> =>
        (await index.search(probe, { k: 5, mode })).some((h) => h.path === target.path);
      for (const [mode, into] of [['lexical', lexical], ['hybrid', hybrid]] as const) {
        const ok = await pollUntil(() => found(mode), { intervalMs: 5, timeoutMs: o.timeoutMs });
        const ms = performance.now() - t0;
        if (ok) into.push(ms);
        if (!ok || ms > o.slowMs) slow.push({ path: target.path, mode, ms: ok ? Math.round(ms) : null });
      }
      await watcher.idle();
      for (const b of batches.slice(seenBatches)) apply.push(b.ms);
    }
  } finally {
    watcher.off('updated', onBatch).off('error', onError);
  }
  return { lexical: summarize(lexical), hybrid: summarize(hybrid), apply: summarize(apply), slow, errors };
}

/** A random function chunk whose body opens on a line of its own: its file, content and that line (0-based). */
async function pickFunction(index: CodeIndex, random: () => number): Promise<{ path: string; content: string; line: number }> {
  const { catalog } = index.store;
  const rowIds = await catalog.liveRowIds();
  for (let attempt = 0; attempt < 200; attempt++) {
    const row = await catalog.getChunkByRowId(rowIds[Math.floor(random() * rowIds.length)]!);
    if (!row || (row.kind !== 'function' && row.kind !== 'method') || !CODE_LANGUAGE.test(row.language)) continue;
    const content = await readFile(path.join(index.config.root, row.path), 'utf8');
    const lines = content.split('\n');
    for (let l = row.startLine - 1; l < Math.min(row.endLine - 1, lines.length); l++) {
      if (BODY_OPEN.test(lines[l]!)) return { path: row.path, content, line: l };
    }
  }
  throw new Error(`Found no function with a block body to edit in ${index.config.root} after 200 tries.`);
}

/** What absorbing a many-file rewrite cost. */
export interface BranchSwitch {
  readonly files: number;
  /** Copying all files over the root with `cp` (ms). */
  readonly writeMs: number;
  /** First write -> every rewritten file's new size recorded in the catalog (ms). */
  readonly absorbedMs: number;
  /** False when the timeout passed before every file was absorbed. */
  readonly absorbedAll: boolean;
  /** First write -> the watcher idle (ms). */
  readonly idleMs: number;
  readonly batches: number;
  readonly fullPasses: number;
  readonly filesChanged: number;
  readonly embedded: number;
  readonly reused: number;
  readonly errors: readonly string[];
  /** Was the probe of the last file written searchable (lexical) at the end? */
  readonly lastProbeFound: boolean;
}

/**
 * Rewrites `count` code files at once, as a branch switch does: each gets a new statement in its first
 * function body (a new text to embed) and a trailing comment (the rest of its chunks stay reusable). The new
 * contents are staged in `stageDir` and copied over the root by a `cp` child process, as git would write them
 * from another process (writing them from this process would queue behind the watcher's own stat polling).
 * Then waits until the catalog holds every new file size, and reports the watcher's batches.
 */
export async function branchSwitch(
  index: CodeIndex,
  watcher: IndexWatcher,
  o: { count: number; seed: number; timeoutMs: number; stageDir: string },
): Promise<BranchSwitch> {
  const random = seededRandom(o.seed);
  const { catalog } = index.store;
  const candidates = shuffled((await catalog.listFiles()).filter((f) => CODE_LANGUAGE.test(f.language)).map((f) => f.path), random);
  const rewrites: Array<{ path: string; size: number }> = [];
  let lastProbe = '';
  for (const p of candidates) {
    if (rewrites.length >= o.count) break;
    const lines = (await readFile(path.join(index.config.root, p), 'utf8')).split('\n');
    const open = lines.findIndex((l) => BODY_OPEN.test(l));
    lastProbe = `zb${randomWord(random, 10)}`;
    if (open >= 0) lines.splice(open + 1, 0, `  const ${lastProbe} = ${rewrites.length}; void ${lastProbe};`);
    lines.push(`// ${lastProbe}: rewritten by the branch-switch bench`);
    const content = lines.join('\n');
    rewrites.push({ path: p, size: Buffer.byteLength(content) });
    await mkdir(path.dirname(path.join(o.stageDir, p)), { recursive: true });
    await writeFile(path.join(o.stageDir, p), content);
  }
  const batches: WatchBatch[] = [];
  const errors: string[] = [];
  const onBatch = (b: WatchBatch): void => void batches.push(b);
  const onError = (e: Error): void => void errors.push(e.message);
  watcher.on('updated', onBatch).on('error', onError);
  try {
    const t0 = performance.now();
    await execFileAsync('cp', ['-R', `${o.stageDir}/.`, index.config.root]);
    const writeMs = performance.now() - t0;
    const absorbedAll = await pollUntil(async () => (await Promise.all(rewrites.map((r) => catalog.getFile(r.path)))).every((f, i) => f?.size === rewrites[i]!.size), { intervalMs: 50, timeoutMs: o.timeoutMs });
    const absorbedMs = performance.now() - t0;
    await watcher.idle();
    const idleMs = performance.now() - t0;
    const last = rewrites.at(-1);
    const lastProbeFound = last ? (await index.search(lastProbe, { k: 5, mode: 'lexical' })).some((h) => h.path === last.path) : false;
    const sum = (f: (b: WatchBatch) => number): number => batches.reduce((s, b) => s + f(b), 0);
    return {
      files: rewrites.length,
      writeMs,
      absorbedMs,
      absorbedAll,
      idleMs,
      batches: batches.length,
      fullPasses: batches.filter((b) => b.fullPass).length,
      filesChanged: sum((b) => b.report.filesChanged),
      embedded: sum((b) => b.report.embedded),
      reused: sum((b) => b.report.reused),
      errors,
      lastProbeFound,
    };
  } finally {
    watcher.off('updated', onBatch).off('error', onError);
  }
}
