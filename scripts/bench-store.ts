/**
 * Embedded store vs PostgreSQL store on one eval corpus, same machine, same run (issue 18, Measure):
 * (a) hybrid and iterative latency p50/p95, (b) concurrent readers (queries/s, p95), (c) time and bytes to index a
 * second branch that differs in N files, (d) R@10 of both stores on the eval tasks and their top-10 overlap.
 * Usage: npx tsx scripts/bench-store.ts [--dataset F] [--corpus GIT_DIR] [--vectors-from CACHE_DIR] [--store URL]
 *        [--readers 20] [--per-reader 50] [--branch-files 50] [--limit N] [--keep]
 * Without --store a throwaway PostgreSQL server is started (binaries of scripts/pg/install-postgres.mjs, found in
 * CODESCOUT_POSTGRES_DIR, default <repo>/index-cache/postgres); --store must allow readers x 4 + 2 connections.
 * Vectors: both stores are built with an embedder that takes each chunk's vector from the SQLite embedding cache of
 * an earlier eval index (--vectors-from, default the eval's cache of the dataset), so the corpus is not embedded
 * again; texts not in it are embedded by the model. Build times are reported as measured and with the model's time
 * for the texts the cache served added back at the rate measured in this run.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createEmbedder } from '../src/embed/create-embedder.js';
import { PostgresCatalog } from '../src/store/postgres/postgres-catalog.js';
import { resolveModelSettings } from '../src/config.js';
import type { CodeIndex, Embedder } from '../src/index.js';
import { defaultCacheDir } from './eval/args.js';
import { prepareCorpus } from './eval/corpus.js';
import { loadDataset, type DatasetKind, type EvalTask } from './eval/dataset.js';
import { startBenchPostgres } from './bench/bench-postgres.js';
import { makeBranchTree } from './bench/branch-tree.js';
import { CacheBackedEmbedder } from './bench/cache-backed-embedder.js';
import { BenchUsageError, intFlag, parseBenchArgs, runScript } from './bench/cli-args.js';
import { fmtBytes, fmtLatency, machineLine } from './bench/report-table.js';
import { formatSideBySide, type PairRow } from './bench/side-by-side.js';
import { buildAt, openAt, type BuildResult, type StoreTarget } from './bench/store-builds.js';
import { concurrentReaders, pairedRecall, runInterleaved, top10Overlap, type ConcurrentResult, type TaskFailure } from './bench/store-phases.js';
import { makeTempDir, removeTempDir } from './bench/temp-tree.js';

const USAGE = 'usage: npx tsx scripts/bench-store.ts [--dataset F] [--corpus GIT_DIR] [--vectors-from CACHE_DIR] [--store URL] ' +
  '[--readers 20] [--per-reader 50] [--branch-files 50] [--limit N] [--keep]';
const REPO = 'bench/corpus';
const log = (line: string): void => void process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseBenchArgs(argv, { values: ['dataset', 'corpus', 'vectors-from', 'store', 'readers', 'per-reader', 'branch-files', 'limit'], booleans: ['keep'] });
  if (args.positional.length > 0) throw new BenchUsageError(`Unexpected argument ${args.positional[0]}.`);
  const datasetFile = path.resolve(args.values.get('dataset') ?? '../shared/eval/commit2files-playwright.jsonl');
  const gitDir = path.resolve(args.values.get('corpus') ?? '/work/.mirror/microsoft+playwright/repo');
  const readers = intFlag(args, 'readers', 20);
  const perReader = intFlag(args, 'per-reader', 50);
  const branchFiles = intFlag(args, 'branch-files', 50);
  const startedLoad = machineLine();

  const loaded = await loadDataset(datasetFile);
  const limit = args.values.has('limit') ? intFlag(args, 'limit', 0) : loaded.tasks.length;
  const tasks = loaded.tasks.slice(0, limit);
  const corpus = await prepareCorpus({ header: loaded.header, datasetFile, source: gitDir, workDir: path.join(os.tmpdir(), 'codescout-eval', 'corpora'), fresh: false, onStep: log });
  const settings = resolveModelSettings({ offline: true });
  const vectorsFrom = path.resolve(args.values.get('vectors-from') ?? defaultCacheDir(loaded.header.name, settings.model.id));
  const sourceCatalog = await findCatalog(vectorsFrom);
  const work = await makeTempDir('store');
  const server = args.values.has('store') ? undefined : await startBenchPostgres();
  const connectionString = args.values.get('store') ?? server!.connectionString;
  const real = await createEmbedder({ ...settings, spec: settings.model });
  const cached = new CacheBackedEmbedder(real, { catalogFile: sourceCatalog });
  const open: CodeIndex[] = [];
  try {
    log(`corpus ${corpus.dir} (${corpus.files.length} files); vectors from ${sourceCatalog}; work ${work}`);
    const embedded: StoreTarget = { kind: 'embedded', cacheDir: path.join(work, 'embedded-main') };
    const postgres: StoreTarget = { kind: 'postgres', connectionString, repo: REPO, ref: 'main', cacheDir: path.join(work, 'pg-local') };
    // First builds (the model only for texts the source cache lacks), then both indexes opened for reading.
    const buildE = await buildAt({ root: corpus.dir, target: embedded, embedder: cached, log });
    const buildP = await buildAt({ root: corpus.dir, target: postgres, embedder: cached, log });
    // The wrapper, not the model itself: an index's close() disposes its embedder, and the model is shared.
    const e = track(open, await openAt({ root: corpus.dir, target: embedded, embedder: cached }));
    const p = track(open, await openAt({ root: corpus.dir, target: postgres, embedder: cached }));
    const [statsE, statsP] = [await e.stats(), await p.stats()];

    // (a) + (d): the eval tasks, interleaved between the stores.
    const common = { indexes: [e, p] as [CodeIndex, CodeIndex], tasks, kind: loaded.header.kind, k: 10, maxCycles: 3 };
    log(`hybrid: ${tasks.length} tasks x 2 stores`);
    const hybrid = await runInterleaved({ ...common, mode: 'hybrid' });
    const [hybridE, hybridP] = hybrid.runs;
    // The two halves of hybrid, to show where a difference comes from.
    const vector = await runInterleaved({ ...common, mode: 'vector' });
    const lexical = await runInterleaved({ ...common, mode: 'lexical' });
    const [[vectorE, vectorP], [lexicalE, lexicalP]] = [vector.runs, lexical.runs];
    log(`iterative: ${tasks.length} tasks x 2 stores`);
    const loop = await runInterleaved({ ...common, mode: 'iterative' });
    const [loopE, loopP] = loop.runs;
    const failures = [...hybrid.failures, ...vector.failures, ...lexical.failures, ...loop.failures];
    for (const f of failures) log(`failed on ${f.store === 0 ? 'embedded' : 'PostgreSQL'}: ${f.taskId}: ${f.message}`);

    // (b): readers with memoised query vectors, so the phase measures the stores, not the model.
    const memo = new CacheBackedEmbedder(real, { catalogFile: sourceCatalog, memoQueries: true });
    const queries = tasks.map((t) => t.query);
    for (const q of queries) await memo.embedQuery(q);
    const readersOf = async (target: StoreTarget): Promise<CodeIndex[]> => {
      const list: CodeIndex[] = [];
      for (let r = 0; r < readers; r++) list.push(track(open, await openAt({ root: corpus.dir, target, embedder: memo })));
      return list;
    };
    const concurrency = async (target: StoreTarget): Promise<{ one: ConcurrentResult; many: ConcurrentResult }> => {
      const list = await readersOf(target);
      await concurrentReaders({ indexes: list, queries, perReader: 2 });
      const one = await concurrentReaders({ indexes: list.slice(0, 1), queries, perReader: perReader * 2 });
      const many = await concurrentReaders({ indexes: list, queries, perReader });
      log(`${target.kind} readers: 1 -> ${one.perSecond.toFixed(1)} q/s, ${readers} -> ${many.perSecond.toFixed(1)} q/s`);
      for (const index of list) await close(open, index);
      return { one, many };
    };
    const readE = await concurrency(embedded);
    const readP = await concurrency(postgres);
    memo.close();

    // (c): a second branch, N files rolled back to an ancestor's version.
    const branch = await makeBranchTree({ gitDir, commit: loaded.header.commit, corpusDir: corpus.dir, corpusFiles: corpus.files, files: branchFiles, dest: path.join(work, 'branch') });
    log(`branch: ${branch.changed} files from ${branch.from}, ${branch.deleted} deleted`);
    const branchP = await buildAt({ root: branch.dir, target: { ...postgres, ref: `branch-${branchFiles}` }, embedder: cached, log });
    const branchE = await buildAt({ root: branch.dir, target: { kind: 'embedded', cacheDir: path.join(work, 'embedded-branch') }, embedder: cached, log });
    const branchStats = await statsOfBranch({ root: branch.dir, target: { ...postgres, ref: `branch-${branchFiles}` }, embedder: cached });
    // The same branch as a layer over main (--base-ref main): only the files that differ are stored.
    const layered: StoreTarget = { ...postgres, ref: `branch-${branchFiles}-over-main`, baseRef: 'main' };
    const branchL = await buildAt({ root: branch.dir, target: layered, embedder: cached, log });
    const layeredStats = `${await statsOfBranch({ root: branch.dir, target: layered, embedder: cached })} as read; it stores ${await storedRows(connectionString, layered)}`;
    const layeredRecall = await layeredBranchCheck({ root: branch.dir, whole: { ...postgres, ref: `branch-${branchFiles}` }, layered, embedder: cached, tasks, kind: loaded.header.kind });

    const msPerText = realEmbedRate([buildE, buildP, branchP, branchE]);
    const recallH = pairedRecall(hybridE.recall10, hybridP.recall10);
    const recallL = pairedRecall(loopE.recall10, loopP.recall10);
    const overlapH = top10Overlap(hybridE.top10, hybridP.top10);
    const overlapL = top10Overlap(loopE.top10, loopP.top10);
    const rows: PairRow[] = [
      ['index', `${statsE.files} files, ${statsE.chunks} chunks`, `${statsP.files} files, ${statsP.chunks} chunks`, `${corpus.dir}`],
      ['bytes, first build', fmtBytes(buildE.bytesAdded), fmtBytes(buildP.bytesAdded), 'index folder after close | database growth (tables, indexes, cache)'],
      ['first build, measured', fmtS(buildE.ms), fmtS(buildP.ms), `vectors from the SQLite cache: ${countsNote(buildE)} | ${countsNote(buildP)}`],
      ['first build, model time added', fmtS(withModel(buildE, msPerText)), fmtS(withModel(buildP, msPerText)), `+ cached texts x ${msPerText.toFixed(1)} ms/text (model rate in this run)`],
      ['one-shot hybrid', fmtLatency(hybridE.latency), fmtLatency(hybridP.latency), `${hybridE.latency.n} eval queries, k 10, query embedding included${failed(hybrid.failures)}`],
      ['  of which: vector only', fmtLatency(vectorE.latency), fmtLatency(vectorP.latency), `mode vector (query embedding included)${failed(vector.failures)}`],
      ['  of which: lexical only', fmtLatency(lexicalE.latency), fmtLatency(lexicalP.latency), `mode lexical (BM25; no embedding)${failed(lexical.failures)}`],
      ['iterative retrieve', fmtLatency(loopE.latency), fmtLatency(loopP.latency), `${loopE.latency.n} tasks, all cycles (max 3), built-in judge${failed(loop.failures)}`],
      ['1 reader', rate(readE.one), rate(readP.one), `${readE.one.queries} hybrid searches, query vectors memoised`],
      [`${readers} concurrent readers`, rate(readE.many), rate(readP.many), `${readE.many.queries} searches; one process, ${readers} opened indexes (PostgreSQL: a pool of 4 connections each)`],
      [`${readers} readers latency`, fmtLatency(readE.many.latency), fmtLatency(readP.many.latency), 'per search, under the concurrent load'],
      [`branch (${branchFiles} files differ)`, fmtS(branchE.ms), fmtS(branchP.ms), `${branch.changed} rolled back to ${branch.from.replace(/^(\w{10})\w*/, '$1')}, ${branch.deleted} deleted`],
      ['branch, texts to embed', `${branchE.report.embedded} (${branchE.counts?.computed} model)`, `${branchP.report.embedded} (${branchP.counts?.computed} model)`, 'embedded: its own new index | PostgreSQL: new ref, shared cache'],
      ['branch, model time added', fmtS(withModel(branchE, msPerText)), fmtS(withModel(branchP, msPerText)), 'as a checkout without the SQLite source cache would take'],
      ['branch, bytes added', fmtBytes(branchE.bytesAdded), fmtBytes(branchP.bytesAdded), `PostgreSQL branch namespace: ${branchStats}`],
      [`branch over main (--base-ref)`, '', fmtS(branchL.ms), `the same ${branchFiles}-file branch as a layer over main: ${layeredStats}`],
      ['  over main, bytes added', '', fmtBytes(branchL.bytesAdded), `texts to embed ${branchL.report.embedded}`],
      ['  layered vs whole branch', '', '', layeredRecall],
      ['R@10 hybrid', recallH.meanA.toFixed(3), recallH.meanB.toFixed(3), `diff ${signed(recallH.diff)} +- ${recallH.halfWidth.toFixed(3)} (95 %); top-10 files ${pct(overlapH.meanShare)} shared, ${overlapH.identical}/${hybridE.top10.length} identical`],
      ['R@10 iterative', recallL.meanA.toFixed(3), recallL.meanB.toFixed(3), `diff ${signed(recallL.diff)} +- ${recallL.halfWidth.toFixed(3)} (95 %); top-10 files ${pct(overlapL.meanShare)} shared, ${overlapL.identical}/${loopE.top10.length} identical`],
    ];
    const command = `npx tsx scripts/bench-store.ts${argv.length ? ` ${argv.join(' ')}` : ''}`;
    process.stdout.write(`${formatSideBySide({ title: `codescout bench-store: ${loaded.header.name}, ${settings.model.id}`, command, startedLoad, rows })}\n`);
  } finally {
    for (const index of [...open]) await close(open, index);
    cached.close();
    await real.dispose();
    await server?.stop();
    if (args.flags.has('keep')) log(`kept ${work}`);
    else await removeTempDir(work);
  }
}

/** The catalog.sqlite of the one index folder under an eval cache dir. @throws BenchUsageError when there is none. */
async function findCatalog(cacheDir: string): Promise<string> {
  const entries = existsSync(cacheDir) ? await readdir(cacheDir) : [];
  const found = entries.map((e) => path.join(cacheDir, e, 'catalog.sqlite')).filter((f) => existsSync(f));
  if (found.length !== 1) {
    throw new BenchUsageError(`--vectors-from ${cacheDir} holds ${found.length} indexes; it needs exactly one. Run the eval on the dataset first (npx tsx scripts/eval.ts --dataset ... --modes hybrid).`);
  }
  return found[0]!;
}

/**
 * The layered branch against the whole one: R@10 of the eval tasks in hybrid and iterative mode (the tasks' gold is
 * of main's commit, and the branch differs from it in a few files only, so both are scored alike), paired.
 */
async function layeredBranchCheck(o: { root: string; whole: StoreTarget; layered: StoreTarget; embedder: Embedder; tasks: readonly EvalTask[]; kind: DatasetKind }): Promise<string> {
  const whole = await openAt({ root: o.root, target: o.whole, embedder: o.embedder });
  const layered = await openAt({ root: o.root, target: o.layered, embedder: o.embedder });
  try {
    const parts: string[] = [];
    for (const mode of ['hybrid', 'iterative'] as const) {
      const { runs } = await runInterleaved({ indexes: [whole, layered], tasks: o.tasks, kind: o.kind, mode, k: 10, maxCycles: 3 });
      const r = pairedRecall(runs[0].recall10, runs[1].recall10);
      parts.push(`${mode} R@10 ${r.meanA.toFixed(3)} whole / ${r.meanB.toFixed(3)} layered (${signed(r.diff)} +- ${r.halfWidth.toFixed(3)}), p50 ${runs[0].latency.p50.toFixed(0)} / ${runs[1].latency.p50.toFixed(0)} ms`);
    }
    return parts.join('; ');
  } finally {
    await whole.close();
    await layered.close();
  }
}

/** `files, chunks` a namespace holds itself (a layered one: its own files and hidden rows only). */
async function storedRows(connectionString: string, target: StoreTarget): Promise<string> {
  if (target.kind !== 'postgres') return '';
  const catalog = await PostgresCatalog.open({ connectionString, repo: target.repo, ref: target.ref, mode: 'read' });
  try {
    return `${(await catalog.listFiles()).length} files, ${await catalog.chunkCount()} chunks`;
  } finally {
    await catalog.close();
  }
}

/** `files, chunks` of the branch namespace as a reader sees it. */
async function statsOfBranch(o: { root: string; target: StoreTarget; embedder: Embedder }): Promise<string> {
  const index = await openAt({ root: o.root, target: o.target, embedder: o.embedder });
  try {
    const s = await index.stats();
    return `${s.files} files, ${s.chunks} chunks`;
  } finally {
    await index.close();
  }
}

function track(open: CodeIndex[], index: CodeIndex): CodeIndex {
  open.push(index);
  return index;
}

async function close(open: CodeIndex[], index: CodeIndex): Promise<void> {
  open.splice(open.indexOf(index), 1);
  await index.close();
}

/** The model's ms per text over every text it computed in this run (NaN when it computed none). */
function realEmbedRate(builds: readonly BuildResult[]): number {
  const computed = builds.reduce((s, b) => s + (b.counts?.computed ?? 0), 0);
  const ms = builds.reduce((s, b) => s + (b.counts?.computeMs ?? 0), 0);
  return computed > 0 ? ms / computed : Number.NaN;
}

/** Build time had the model embedded the texts the SQLite cache served. */
function withModel(b: BuildResult, msPerText: number): number {
  return b.ms + (b.counts?.cached ?? 0) * msPerText;
}

function countsNote(b: BuildResult): string {
  return `${b.counts?.cached ?? 0} cached, ${b.counts?.computed ?? 0} model`;
}

/** `; 3 tasks failed (PostgreSQL 3): <first message>` or nothing. */
function failed(failures: readonly TaskFailure[]): string {
  if (failures.length === 0) return '';
  const pg = failures.filter((f) => f.store === 1).length;
  const tasks = new Set(failures.map((f) => f.taskId)).size;
  return `; ${tasks} tasks failed and left out (embedded ${failures.length - pg}, PostgreSQL ${pg}): ${failures[0]!.message}`;
}

function rate(r: ConcurrentResult): string {
  return `${r.perSecond.toFixed(1)} q/s`;
}

function fmtS(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'n/a';
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
}

await runScript(USAGE, main);
