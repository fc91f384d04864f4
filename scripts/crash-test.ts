/**
 * Crash safety at scale: in a temp tree of generated source files, repeatedly starts `codescout index`
 * (after random edits, or with --rebuild) or `codescout watch` (with files written while it runs), SIGKILLs it
 * after a random delay, then reopens the index and checks that `verify()` finds nothing, that `update()`
 * completes it, and that its chunk set equals that of a reference index that was never killed. The run
 * ends with a from-scratch build of the final tree, compared with both.
 *
 * Usage: npx tsx scripts/crash-test.ts [--trials 50] [--seed N] [--files 150] [--min-delay 50] [--max-delay 3000] [--json]
 * Needs `npm run build` first (it runs bin/codescout.js). Exits 1 when any trial failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openIndex, type CodeIndex } from '../src/code-index.js';
import { defaultModelsDir } from '../src/config.js';
import { createEmbedder } from '../src/embed/create-embedder.js';
import type { Embedder } from '../src/embed/embedder.js';
import { MODELS } from '../src/embed/models.js';
import { indexDirFor } from '../src/indexer/index-location.js';
import { WRITE_LOCK_FILE } from '../src/store/write-lock.js';
import { seededRandom } from './bench/seeded.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/codescout.js');

/** What a trial runs before it is killed. */
export type TrialKind = 'index' | 'rebuild' | 'watch';

/** Options of {@link runCrashTrials}. */
export interface CrashTestOptions {
  readonly trials: number;
  /** Seed of the pseudo-random delays and edits; print it to replay a run. */
  readonly seed: number;
  /** Generated source files in the tree. */
  readonly files: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** Kinds to cycle through in order; default: drawn at random (60% index, 20% rebuild, 20% watch). */
  readonly kinds?: readonly TrialKind[];
  readonly log?: (line: string) => void;
}

/** What the trials found. Healthy: verifyFailures, mismatches and finalMismatch all zero/false. */
export interface CrashTestSummary {
  readonly seed: number;
  readonly trials: number;
  readonly byKind: Record<TrialKind, number>;
  /** Children still running when the SIGKILL came. */
  readonly killedMidRun: number;
  /** Of those, children that had reported indexing progress (catalog writes under way or done). */
  readonly killedMidWrite: number;
  /** Children that finished before the kill timer. */
  readonly finishedBeforeKill: number;
  /** Trials where verify() reported a problem after the kill (or after the completing update). */
  readonly verifyFailures: number;
  /** Trials whose completed chunk set differed from the reference index's. */
  readonly mismatches: number;
  /** True when the final from-scratch build differed from the reference. */
  readonly finalMismatch: boolean;
  readonly failures: readonly string[];
  readonly seconds: number;
}

const TOPICS = ['parse', 'render', 'store', 'fetch', 'encode', 'merge', 'sort', 'score', 'route', 'cache'];

/** Source text of file `i` at edit `version`: distinct per (i, version), a few symbols each. */
function sourceOf(i: number, version: number): string {
  const topic = TOPICS[i % TOPICS.length]!;
  const Name = `${topic[0]!.toUpperCase()}${topic.slice(1)}`;
  return (
    `/** ${topic} helper ${i}, revision ${version}, for records of kind ${(i + version) % 7}. */\n` +
    `export function ${topic}Record${i}v${version}(input: string[], limit = ${i + version}): string[] {\n` +
    `  return input.filter((x, j) => j < limit).map((x) => x + '${topic}-${i}-${version}');\n}\n\n` +
    `export class ${Name}Cache${i} {\n  private entries = new Map<string, number>();\n` +
    `  put(key: string): void {\n    this.entries.set(key, ${i * 31 + version});\n  }\n` +
    `  get(key: string): number | undefined {\n    return this.entries.get(key) ?? ${version};\n  }\n}\n`
  );
}

function relPathOf(i: number): string {
  return `pkg${i % 12}/${TOPICS[i % TOPICS.length]}/${TOPICS[i % TOPICS.length]}-${i}.ts`;
}

/** The tree under test: which generated files exist and at which version. */
class Tree {
  readonly versions = new Map<number, number>();
  private nextId: number;
  constructor(readonly root: string, count: number) {
    for (let i = 0; i < count; i++) this.versions.set(i, 0);
    this.nextId = count;
  }
  async writeAll(): Promise<void> {
    for (const [i, v] of this.versions) await this.write(i, v);
  }
  async write(i: number, version: number): Promise<void> {
    const abs = path.join(this.root, relPathOf(i));
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, sourceOf(i, version));
    this.versions.set(i, version);
  }
  /** Random edits: rewrite some files, delete a few, add a few. */
  async mutate(random: () => number, edits: number): Promise<void> {
    const ids = [...this.versions.keys()];
    for (let n = 0; n < edits; n++) {
      const roll = random();
      const i = ids[Math.floor(random() * ids.length)]!;
      if (roll < 0.7 && this.versions.has(i)) await this.write(i, this.versions.get(i)! + 1);
      else if (roll < 0.85 && this.versions.has(i) && this.versions.size > 10) {
        await unlink(path.join(this.root, relPathOf(i)));
        this.versions.delete(i);
      } else await this.write(this.nextId++, 0);
    }
  }
}

/** Everything that defines an index's content: (path, lines, kind, symbol, hash) of every live chunk, sorted. */
export function chunkSet(index: CodeIndex): string[] {
  const { catalog } = index.store;
  return catalog
    .getChunks(catalog.liveRowIds())
    .map((c) => `${c.path}:${c.startLine}-${c.endLine}:${c.kind}:${c.symbol}:${c.hash}`)
    .sort();
}

/** An embedder whose dispose() is a no-op, so one loaded model serves every in-process open. */
function borrowed(shared: Embedder): Embedder {
  return new Proxy(shared, { get: (target, key) => (key === 'dispose' ? async () => undefined : Reflect.get(target, key)) });
}

function spawnCodescout(args: readonly string[]): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, CODESCOUT_OFFLINE: '1' };
  delete env.CODESCOUT_CACHE_DIR;
  return spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs the trials; never throws for a failed trial (it is counted and described in `failures`). */
export async function runCrashTrials(options: CrashTestOptions): Promise<CrashTestSummary> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const random = seededRandom(options.seed);
  const base = await mkdtemp(path.join(os.tmpdir(), 'codescout-crash-'));
  const root = path.join(base, 'repo');
  const cacheDir = path.join(base, 'cache');
  const referenceDir = path.join(base, 'reference');
  const tree = new Tree(root, options.files);
  const lockPath = path.join(indexDirFor(cacheDir, root), WRITE_LOCK_FILE);
  await tree.writeAll();
  const shared = await createEmbedder({ spec: MODELS['all-MiniLM-L6-v2']!, modelsDir: defaultModelsDir(), offline: true });
  const embedder = borrowed(shared);
  const byKind: Record<TrialKind, number> = { index: 0, rebuild: 0, watch: 0 };
  const failures: string[] = [];
  let killedMidRun = 0;
  let killedMidWrite = 0;
  let finishedBeforeKill = 0;
  let verifyFailures = 0;
  let mismatches = 0;
  let finalMismatch = false;
  try {
    for (let t = 1; t <= options.trials; t++) {
      const kind = options.kinds?.[(t - 1) % options.kinds.length] ?? pickKind(random());
      byKind[kind]++;
      if (kind === 'index' && t > 1) await tree.mutate(random, 1 + Math.floor(random() * 40));
      const delayMs = Math.round(options.minDelayMs + random() * (options.maxDelayMs - options.minDelayMs));
      const args = kind === 'watch' ? ['watch', root, '--cache-dir', cacheDir] : ['index', root, '--cache-dir', cacheDir];
      if (kind === 'rebuild') args.push('--rebuild');
      const outcome = await runAndKill({ args, delayMs, lockPath, edit: kind === 'watch' ? () => tree.mutate(random, 1) : undefined });
      if (outcome.killed) killedMidRun++;
      else finishedBeforeKill++;
      if (outcome.killed && outcome.wrote) killedMidWrite++;
      if (!outcome.killed && outcome.code !== 0) failures.push(`trial ${t} (${kind}): exited ${outcome.code}: ${outcome.stderr.slice(-300)}`);

      const index = await openIndex({ root, cacheDir, embedder, lockWaitMs: 10_000 });
      let problems = index.verify();
      let got: string[];
      try {
        await index.update();
        problems = [...problems, ...index.verify().map((p) => `after update: ${p}`)];
        got = chunkSet(index);
      } finally {
        await index.close();
      }
      const reference = await openIndex({ root, cacheDir: referenceDir, embedder });
      let want: string[];
      try {
        await reference.update();
        want = chunkSet(reference);
      } finally {
        await reference.close();
      }
      const same = got.length === want.length && got.every((c, i) => c === want[i]);
      if (problems.length > 0) {
        verifyFailures++;
        failures.push(`trial ${t} (${kind}, killed at ${delayMs} ms): verify: ${problems.join('; ')}`);
      }
      if (!same) {
        mismatches++;
        failures.push(`trial ${t} (${kind}, killed at ${delayMs} ms): ${got.length} chunks, reference ${want.length}`);
      }
      log(`trial ${t}/${options.trials} ${kind.padEnd(7)} kill at ${String(delayMs).padStart(4)} ms: ` +
        `${outcome.killed ? (outcome.wrote ? 'killed mid-write' : 'killed before writing') : 'finished first'}, ` +
        `verify ${problems.length === 0 ? 'ok' : 'FAILED'}, chunks ${same ? 'match' : 'DIFFER'} (${got.length})`);
    }
    finalMismatch = !(await matchesScratchBuild({ root, base, referenceDir, embedder }));
    if (finalMismatch) failures.push('final from-scratch build differs from the reference');
  } finally {
    await shared.dispose();
    await rm(base, { recursive: true, force: true });
  }
  return {
    seed: options.seed, trials: options.trials, byKind, killedMidRun, killedMidWrite, finishedBeforeKill,
    verifyFailures, mismatches, finalMismatch, failures, seconds: Math.round((performance.now() - started) / 1000),
  };
}

function pickKind(roll: number): TrialKind {
  return roll < 0.6 ? 'index' : roll < 0.8 ? 'rebuild' : 'watch';
}

/** Spawns the CLI, optionally edits files every 100 ms while it runs, and SIGKILLs it after `delayMs`. */
async function runAndKill(o: {
  args: readonly string[];
  delayMs: number;
  lockPath: string;
  edit?: () => Promise<void>;
}): Promise<{ killed: boolean; wrote: boolean; code: number | null; stderr: string }> {
  const { delayMs, edit } = o;
  const child = spawnCodescout(o.args);
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let running = true;
  void exited.then(() => (running = false));
  const deadline = Date.now() + delayMs;
  while (running && Date.now() < deadline) {
    if (edit) await edit();
    await new Promise((r) => setTimeout(r, Math.min(100, Math.max(0, deadline - Date.now()))));
  }
  const killed = running;
  if (killed) child.kill('SIGKILL');
  const { code } = await exited;
  // The write lock is held only while the catalog is written (clear, update, save): a lock left behind by
  // the killed child means it died mid-write. A watcher that had printed a batch had written too.
  const wrote = killed && (existsSync(o.lockPath) || /changed|rescanned/.test(stdout));
  return { killed, wrote, code, stderr };
}

async function matchesScratchBuild(o: { root: string; base: string; referenceDir: string; embedder: Embedder }): Promise<boolean> {
  const scratch = await openIndex({ root: o.root, cacheDir: path.join(o.base, 'scratch'), embedder: o.embedder });
  const reference = await openIndex({ root: o.root, cacheDir: o.referenceDir, embedder: o.embedder });
  try {
    await scratch.update();
    const a = chunkSet(scratch);
    const b = chunkSet(reference);
    return scratch.verify().length === 0 && a.length === b.length && a.every((c, i) => c === b[i]);
  } finally {
    await scratch.close();
    await reference.close();
  }
}

function argValue(argv: readonly string[], name: string, fallback: number): number {
  const i = argv.indexOf(name);
  if (i === -1) return fallback;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} needs a whole number, got "${argv[i + 1]}"`);
  return n;
}

async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes('--json');
  const options: CrashTestOptions = {
    trials: argValue(argv, '--trials', 50),
    seed: argValue(argv, '--seed', Math.floor(Math.random() * 2 ** 31)),
    files: argValue(argv, '--files', 150),
    minDelayMs: argValue(argv, '--min-delay', 50),
    maxDelayMs: argValue(argv, '--max-delay', 3000),
    log: json ? undefined : (line) => console.error(line),
  };
  console.error(`crash test: ${options.trials} trials, ${options.files} files, seed ${options.seed}`);
  const s = await runCrashTrials(options);
  if (json) console.log(JSON.stringify(s));
  else {
    console.log(`trials: ${s.trials} (index ${s.byKind.index}, rebuild ${s.byKind.rebuild}, watch ${s.byKind.watch}), seed ${s.seed}, ${s.seconds} s`);
    console.log(`killed mid-run: ${s.killedMidRun} (${s.killedMidWrite} after writing had started), finished before the kill: ${s.finishedBeforeKill}`);
    console.log(`verify failures: ${s.verifyFailures}, chunk-set mismatches: ${s.mismatches}, final scratch build ${s.finalMismatch ? 'DIFFERS' : 'matches'}`);
    for (const f of s.failures) console.log(`  ${f}`);
  }
  return s.verifyFailures + s.mismatches + s.failures.length > 0 || s.finalMismatch ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
