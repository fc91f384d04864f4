/**
 * Query latency: one-shot hybrid search and the iterative retrieval loop (all cycles), plus mean cycles.
 * Usage: npx tsx scripts/bench-query.ts <root> [--queries 100] [--cache-dir D] [--update] [--seed 1] [--queries-file F]
 * Queries are made from the index's symbols, or read from a file (one per line, or JSONL with a "query" field, such
 * as an eval set) with --queries-file.
 * With --cache-dir the existing index there is used as it is (opened read-only unless --update or empty);
 * without it a fresh index is built in a temp cache and deleted afterwards. The root is never written.
 */
import path from 'node:path';
import { openIndex, type CodeIndex } from '../src/index.js';
import { BenchUsageError, intFlag, parseBenchArgs, runScript } from './bench/cli-args.js';
import { searchLatency } from './bench/index-phases.js';
import { processPeakRssBytes, RssSampler, timed } from './bench/measure.js';
import { formatStops, iterativeLatency } from './bench/query-phases.js';
import { queriesFromFile, queriesFromIndex } from './bench/queries.js';
import { fmtBytes, fmtLatency, fmtMs, machineLine, printTable, type Row } from './bench/report-table.js';
import { makeTempDir, removeTempDir } from './bench/temp-tree.js';

const USAGE = 'usage: npx tsx scripts/bench-query.ts <root> [--queries 100] [--cache-dir D] [--update] [--seed 1] [--queries-file F]';

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2), { values: ['queries', 'cache-dir', 'seed', 'queries-file'], booleans: ['update'] });
  const rootArg = args.positional[0];
  if (rootArg === undefined) throw new BenchUsageError('Missing <root>.');
  const root = path.resolve(rootArg);
  const nQueries = intFlag(args, 'queries', 100);
  const seed = intFlag(args, 'seed', 1);
  const startedLoad = machineLine();
  const given = args.values.get('cache-dir');
  const work = given ? undefined : await makeTempDir('query');
  // openIndex runs SQLite's quick_check (O(database size)) when the files changed since the last check.
  const opened = await timed(() => openIndex({ root, cacheDir: given ? path.resolve(given) : path.join(work!, 'cache'), offline: true }));
  const index = opened.value;
  const sampler = new RssSampler().start();
  try {
    const prep = await prepare(index, args.flags.has('update'));
    const file = args.values.get('queries-file');
    const queries = file ? (await queriesFromFile(file)).slice(0, nQueries) : await queriesFromIndex(index, { n: nQueries, seed });
    const stats = await index.stats();
    process.stderr.write(`${stats.chunks} chunks in ${index.indexDir}; ${queries.length} queries\n`);
    const oneShot = await searchLatency(index, queries, 'hybrid');
    // The default judge (learned) against the hand-tuned one as the baseline, same queries, same index.
    const loop = await iterativeLatency(index, queries);
    const formula = await iterativeLatency(index, queries, { builtinJudge: 'heuristic' });
    const rows: Row[] = [
      ['index', `${stats.files} files, ${stats.chunks} chunks`, `${index.indexDir} (${fmtBytes(stats.bytesOnDisk)})`],
      ['openIndex', fmtMs(opened.ms), 'catalog open (quick_check only if the files changed) + HNSW load'],
      ['index prepared by', prep, ''],
      ['one-shot hybrid', fmtLatency(oneShot), `max ${fmtMs(oneShot.max)}, ${oneShot.n} queries, k 10`],
      ['iterative retrieve', fmtLatency(loop.latency), `max ${fmtMs(loop.latency.max)}, mean ${fmtMs(loop.latency.mean)}, all cycles, default judge (learned)`],
      ['mean cycles', loop.meanCycles.toFixed(2), `stopped: ${formatStops(loop.stoppedBecause)}`],
      ['  baseline: heuristic judge', fmtLatency(formula.latency), `max ${fmtMs(formula.latency.max)}, mean ${fmtMs(formula.latency.mean)}, all cycles`],
      ['  mean cycles', formula.meanCycles.toFixed(2), `stopped: ${formatStops(formula.stoppedBecause)}`],
      ['peak RSS', fmtBytes(sampler.stop()), `sampled; process lifetime peak ${fmtBytes(processPeakRssBytes())}`],
    ];
    printTable({ title: 'codescout bench-query', startedLoad, rows });
  } finally {
    sampler.stop();
    await index.close();
    if (work) await removeTempDir(work);
  }
}

/** Builds an empty index (or updates on request); leaves an existing one untouched. Says which it did. */
async function prepare(index: CodeIndex, update: boolean): Promise<string> {
  if (!update && (await index.stats()).chunks > 0) {
    // Not updated: the cache may be shared with other runs, and a stale index times the same as a fresh one.
    const load = await timed(() => index.embedder());
    return `existing cache, not updated (model load ${fmtMs(load.ms)})`;
  }
  const { value, ms } = await timed(() => index.update({ lockWaitMs: 60_000 }));
  return `update(): ${(ms / 1000).toFixed(1)} s, ${value.embedded} embedded, ${value.filesChanged} files changed`;
}

await runScript(USAGE, main);
