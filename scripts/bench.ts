/**
 * The whole suite on one corpus, one table: embedder vs bare onnxruntime, build throughput and overhead,
 * no-op update, one-file update, save-to-searchable through the watcher, query latency (one-shot and
 * iterative), peak RSS and bytes per chunk on disk.
 * Usage: npx tsx scripts/bench.ts <root> [--queries 100] [--edits 20] [--sample 300] [--seed 1] [--keep]
 * The corpus's discovered files are copied to a temp folder and indexed into a fresh temp cache.
 */
import path from 'node:path';
import { openIndex } from '../src/index.js';
import { watchIndex } from '../src/watch/watch-index.js';
import { BenchUsageError, intFlag, parseBenchArgs, runScript } from './bench/cli-args.js';
import { measureEmbedThroughput, sampleEmbedTexts } from './bench/embed-throughput.js';
import { buildFresh, noopUpdate, oneFileEdit, searchLatency } from './bench/index-phases.js';
import { buildRows } from './bench/index-rows.js';
import { processPeakRssBytes } from './bench/measure.js';
import { queriesFromIndex } from './bench/queries.js';
import { formatStops, iterativeLatency } from './bench/query-phases.js';
import { fmtBytes, fmtLatency, fmtMs, machineLine, printTable, type Row } from './bench/report-table.js';
import { copyDiscoveredTree, dirBytes, makeTempDir, removeTempDir } from './bench/temp-tree.js';
import { saveToSearchable } from './bench/watch-phases.js';

const USAGE = 'usage: npx tsx scripts/bench.ts <root> [--queries 100] [--edits 20] [--sample 300] [--seed 1] [--keep]';

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2), { values: ['queries', 'edits', 'sample', 'seed'], booleans: ['keep'] });
  const rootArg = args.positional[0];
  if (rootArg === undefined) throw new BenchUsageError('Missing <root>.');
  const root = path.resolve(rootArg);
  const nQueries = intFlag(args, 'queries', 100);
  const edits = intFlag(args, 'edits', 20);
  const nSample = intFlag(args, 'sample', 300);
  const seed = intFlag(args, 'seed', 1);
  const startedLoad = machineLine();
  const step = (what: string): void => void process.stderr.write(`${what}\n`);

  const work = await makeTempDir('suite');
  const tree = path.join(work, path.basename(root));
  await copyDiscoveredTree({ root, dest: tree });
  const index = await openIndex({ root: tree, cacheDir: path.join(work, 'cache'), offline: true });
  try {
    step('full build');
    const build = await buildFresh(index);
    step(`embedder alone on ${nSample} chunk texts`);
    const texts = await sampleEmbedTexts({ root: tree, n: nSample, seed, maxTokens: index.config.model.maxTokens });
    const alone = await measureEmbedThroughput(await index.embedder(), texts, index.config.model);
    step('no-op update, one-file update');
    const noop = await noopUpdate(index);
    const edit = await oneFileEdit(index, seed);
    const queries = await queriesFromIndex(index, { n: nQueries, seed });
    step(`query latency over ${queries.length} queries`);
    const oneShot = await searchLatency(index, queries, 'hybrid');
    const loop = await iterativeLatency(index, queries);
    step(`${edits} watched edits`);
    const watcher = watchIndex(index);
    let save;
    try {
      await watcher.ready;
      save = await saveToSearchable(index, watcher, { edits, seed, timeoutMs: 15_000, slowMs: 1000 });
    } finally {
      await watcher.close();
    }
    const rows: Row[] = [
      ['corpus', `${build.report.files} files, ${build.report.chunks} chunks`, root],
      ...buildRows(index, build, alone),
      ['no-op update', `${(noop.ms / 1000).toFixed(3)} s`, `${noop.report.filesChanged} files changed`],
      ['one-file update', fmtMs(edit.editMs), `append a function to ${edit.path}: ${edit.edit.embedded} embedded`],
      ['save -> searchable, lexical', fmtLatency(save.lexical), `max ${fmtMs(save.lexical.max)}, ${save.lexical.n}/${edits} edits via the watcher`],
      ['save -> searchable, hybrid', fmtLatency(save.hybrid), `max ${fmtMs(save.hybrid.max)}, ${save.hybrid.n}/${edits}; ${save.slow.length} over 1 s or lost`],
      ['query one-shot hybrid', fmtLatency(oneShot), `max ${fmtMs(oneShot.max)}, ${oneShot.n} queries, k 10`],
      ['query iterative', fmtLatency(loop.latency), `max ${fmtMs(loop.latency.max)}, mean cycles ${loop.meanCycles.toFixed(2)} (${formatStops(loop.stoppedBecause)})`],
      ['peak RSS (process)', fmtBytes(processPeakRssBytes()), 'resourceUsage().maxRSS over the whole suite'],
    ];
    await index.close();
    // Closing checkpoints SQLite's write-ahead log into the database: the size a user sees at rest.
    const atRest = await dirBytes(index.indexDir);
    rows.push(['bytes on disk at rest', fmtBytes(atRest), `${(atRest / Math.max(1, build.report.chunks)).toFixed(0)} bytes/chunk after close()`]);
    printTable({ title: 'codescout bench', startedLoad, rows });
  } finally {
    await index.close();
    if (args.flags.has('keep')) step(`kept ${work}`);
    else await removeTempDir(work);
  }
}

await runScript(USAGE, main);
