/**
 * Crash safety at scale: in a temp tree of generated source files, repeatedly starts `codescout index`
 * (after random edits, or with --rebuild), `codescout watch` (with files written while it runs) or
 * `codescout mcp --no-watch` (after random edits, with a `reindex` call of every path or of some changed ones),
 * SIGKILLs it after a random delay, then reopens the index and checks that `verify()` finds nothing, that
 * `update()` completes it, and that its chunk set equals that of a reference index that was never killed. The run
 * ends with a from-scratch build of the final tree, compared with both.
 *
 * Usage: npx tsx scripts/crash-test.ts [--trials 50] [--seed N] [--files 150] [--min-delay 50] [--max-delay 3000]
 *   [--kinds index,watch,mcp-reindex] [--json]
 * Needs `npm run build` first (it runs bin/codescout.js). Exits 1 when any trial failed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openIndex, type CodeIndex } from '../src/code-index.js';
import { defaultModelsDir } from '../src/config.js';
import { createEmbedder } from '../src/embed/create-embedder.js';
import type { Embedder } from '../src/embed/embedder.js';
import { MODELS } from '../src/embed/models.js';
import { indexDirFor } from '../src/indexer/index-location.js';
import { WRITE_LOCK_FILE } from '../src/store/write-lock.js';
import { seededRandom } from './bench/seeded.js';
import { CLI, childEnv, runAndKill } from './crash/cli-trial.js';
import { runMcpReindexTrial } from './crash/mcp-reindex-trial.js';
import { Tree } from './crash/tree.js';

/** What a trial runs before it is killed. */
export type TrialKind = 'index' | 'rebuild' | 'watch' | 'mcp-reindex';

const TRIAL_KINDS: readonly TrialKind[] = ['index', 'rebuild', 'watch', 'mcp-reindex'];

/** Options of {@link runCrashTrials}. */
export interface CrashTestOptions {
  readonly trials: number;
  /** Seed of the pseudo-random delays and edits; print it to replay a run. */
  readonly seed: number;
  /** Generated source files in the tree. */
  readonly files: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** Kinds to cycle through in order; default: drawn at random (50% index, 15% rebuild, 15% watch, 20% mcp-reindex). */
  readonly kinds?: readonly TrialKind[];
  readonly log?: (line: string) => void;
}

/** What the trials found. Healthy: verifyFailures, mismatches and finalMismatch all zero/false. */
export interface CrashTestSummary {
  readonly seed: number;
  readonly trials: number;
  readonly byKind: Record<TrialKind, number>;
  /** Children still running (mcp-reindex: with the `reindex` call unanswered) when the SIGKILL came. */
  readonly killedMidRun: number;
  /** Of those, children that had reported indexing progress (catalog writes under way or done). */
  readonly killedMidWrite: number;
  /** Children that finished (mcp-reindex: whose `reindex` call answered; the idle server is killed anyway) before the kill timer. */
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

/** Everything that defines an index's content: (path, lines, kind, symbol, hash) of every live chunk, sorted. */
export async function chunkSet(index: CodeIndex): Promise<string[]> {
  const { catalog } = index.store;
  return (await catalog.getChunks(await catalog.liveRowIds()))
    .map((c) => `${c.path}:${c.startLine}-${c.endLine}:${c.kind}:${c.symbol}:${c.hash}`)
    .sort();
}

/** An embedder whose dispose() is a no-op, so one loaded model serves every in-process open. */
function borrowed(shared: Embedder): Embedder {
  return new Proxy(shared, { get: (target, key) => (key === 'dispose' ? async () => undefined : Reflect.get(target, key)) });
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
  const byKind: Record<TrialKind, number> = { index: 0, rebuild: 0, watch: 0, 'mcp-reindex': 0 };
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
      const delayMs = Math.round(options.minDelayMs + random() * (options.maxDelayMs - options.minDelayMs));
      const outcome = await runTrial({ kind, first: t === 1, delayMs, tree, random, cacheDir, lockPath });
      if (outcome.killed) killedMidRun++;
      else finishedBeforeKill++;
      if (outcome.killed && outcome.wrote) killedMidWrite++;
      if (outcome.problem !== undefined) failures.push(`trial ${t} (${kind}${outcome.detail}): ${outcome.problem}`);

      const index = await openIndex({ root, cacheDir, embedder, lockWaitMs: 10_000 });
      let problems = await index.verify();
      let got: string[];
      try {
        await index.update();
        problems = [...problems, ...(await index.verify()).map((p) => `after update: ${p}`)];
        got = await chunkSet(index);
      } finally {
        await index.close();
      }
      const reference = await openIndex({ root, cacheDir: referenceDir, embedder });
      let want: string[];
      try {
        await reference.update();
        want = await chunkSet(reference);
      } finally {
        await reference.close();
      }
      const same = got.length === want.length && got.every((c, i) => c === want[i]);
      if (problems.length > 0) {
        verifyFailures++;
        failures.push(`trial ${t} (${kind}${outcome.detail}, killed at ${delayMs} ms): verify: ${problems.join('; ')}`);
      }
      if (!same) {
        mismatches++;
        failures.push(`trial ${t} (${kind}${outcome.detail}, killed at ${delayMs} ms): ${got.length} chunks, reference ${want.length}`);
      }
      log(`trial ${t}/${options.trials} ${kind.padEnd(11)} kill at ${String(delayMs).padStart(4)} ms${outcome.detail}: ` +
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

/** How a trial's child ended; `detail` (e.g. `, reindex of 3 paths`) goes into its log line. */
interface TrialOutcome {
  readonly killed: boolean;
  readonly wrote: boolean;
  readonly problem?: string;
  readonly detail: string;
}

/** Edits the tree as the kind needs, runs its child and SIGKILLs it `delayMs` later. */
async function runTrial(o: {
  kind: TrialKind;
  first: boolean;
  delayMs: number;
  tree: Tree;
  random: () => number;
  cacheDir: string;
  lockPath: string;
}): Promise<TrialOutcome> {
  const { kind, tree, random, cacheDir, lockPath, delayMs } = o;
  const root = tree.root;
  if (kind === 'mcp-reindex') {
    const paths = reindexPaths(await tree.mutate(random, 1 + Math.floor(random() * 40)), random);
    const outcome = await runMcpReindexTrial({ cli: CLI, root, cacheDir, env: childEnv(), paths, delayMs, lockPath });
    return { ...outcome, detail: paths === undefined ? ', reindex of all' : `, reindex of ${paths.length} paths` };
  }
  if (kind === 'index' && !o.first) await tree.mutate(random, 1 + Math.floor(random() * 40));
  const args = kind === 'watch' ? ['watch', root, '--cache-dir', cacheDir] : ['index', root, '--cache-dir', cacheDir];
  if (kind === 'rebuild') args.push('--rebuild');
  const outcome = await runAndKill({ args, delayMs, lockPath, edit: kind === 'watch' ? () => tree.mutate(random, 1) : undefined });
  const failed = !outcome.killed && outcome.code !== 0;
  return { killed: outcome.killed, wrote: outcome.wrote, detail: '', ...(failed ? { problem: `exited ${outcome.code}: ${outcome.stderr.slice(-300)}` } : {}) };
}

/**
 * What an mcp-reindex trial asks to re-index: everything half the time, else a random subset of the changed
 * paths, a few of them as their folder (which `reindex` walks, removing files gone from it).
 */
function reindexPaths(changed: readonly string[], random: () => number): string[] | undefined {
  if (changed.length === 0 || random() < 0.5) return undefined;
  const picked = changed.filter(() => random() < 0.5).map((p) => (random() < 0.2 ? path.posix.dirname(p) : p));
  return [...new Set(picked.length > 0 ? picked : [changed[0]!])];
}

function pickKind(roll: number): TrialKind {
  return roll < 0.5 ? 'index' : roll < 0.65 ? 'rebuild' : roll < 0.8 ? 'watch' : 'mcp-reindex';
}

async function matchesScratchBuild(o: { root: string; base: string; referenceDir: string; embedder: Embedder }): Promise<boolean> {
  const scratch = await openIndex({ root: o.root, cacheDir: path.join(o.base, 'scratch'), embedder: o.embedder });
  const reference = await openIndex({ root: o.root, cacheDir: o.referenceDir, embedder: o.embedder });
  try {
    await scratch.update();
    const a = await chunkSet(scratch);
    const b = await chunkSet(reference);
    return (await scratch.verify()).length === 0 && a.length === b.length && a.every((c, i) => c === b[i]);
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

/** `--kinds index,watch,mcp-reindex`: the kinds to cycle through; undefined when absent. */
function kindsArg(argv: readonly string[]): TrialKind[] | undefined {
  const i = argv.indexOf('--kinds');
  if (i === -1) return undefined;
  const kinds = (argv[i + 1] ?? '').split(',').filter((k) => k !== '');
  const unknown = kinds.filter((k) => !(TRIAL_KINDS as readonly string[]).includes(k));
  if (kinds.length === 0 || unknown.length > 0) throw new Error(`--kinds takes a comma-separated list of ${TRIAL_KINDS.join(', ')}; got "${argv[i + 1] ?? ''}"`);
  return kinds as TrialKind[];
}

async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes('--json');
  const options: CrashTestOptions = {
    trials: argValue(argv, '--trials', 50),
    seed: argValue(argv, '--seed', Math.floor(Math.random() * 2 ** 31)),
    files: argValue(argv, '--files', 150),
    minDelayMs: argValue(argv, '--min-delay', 50),
    maxDelayMs: argValue(argv, '--max-delay', 3000),
    kinds: kindsArg(argv),
    log: json ? undefined : (line) => console.error(line),
  };
  const mix = options.kinds ? `kinds ${options.kinds.join(',')} in turn` : 'kinds drawn at random';
  console.error(`crash test: ${options.trials} trials, ${options.files} files, ${mix}, seed ${options.seed}`);
  const s = await runCrashTrials(options);
  if (json) console.log(JSON.stringify(s));
  else {
    console.log(`trials: ${s.trials} (index ${s.byKind.index}, rebuild ${s.byKind.rebuild}, watch ${s.byKind.watch}, mcp-reindex ${s.byKind['mcp-reindex']}), seed ${s.seed}, ${s.seconds} s`);
    console.log(`killed mid-run: ${s.killedMidRun} (${s.killedMidWrite} after writing had started), finished before the kill: ${s.finishedBeforeKill}`);
    console.log(`verify failures: ${s.verifyFailures}, chunk-set mismatches: ${s.mismatches}, final scratch build ${s.finalMismatch ? 'DIFFERS' : 'matches'}`);
    for (const f of s.failures) console.log(`  ${f}`);
  }
  return s.verifyFailures + s.mismatches + s.failures.length > 0 || s.finalMismatch ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
