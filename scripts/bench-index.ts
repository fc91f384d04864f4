/**
 * Index build benchmark on a copy of a corpus: full build into a fresh cache, indexing overhead against the
 * embedder's own throughput on the same chunk texts, no-op update, one-file edit, search latency per mode.
 * Usage: npx tsx scripts/bench-index.ts <root> [--cache-dir D] [--queries 200] [--sample 300] [--seed 1] [--keep]
 * The corpus's discovered files are copied to a temp folder first, so the given tree is never written.
 */
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { openIndex } from '../src/index.js';
import { intFlag, parseBenchArgs, runScript, BenchUsageError } from './bench/cli-args.js';
import { measureEmbedThroughput, sampleEmbedTexts } from './bench/embed-throughput.js';
import { buildRows } from './bench/index-rows.js';
import { buildFresh, noopUpdate, oneFileEdit, searchLatency } from './bench/index-phases.js';
import { queriesFromIndex } from './bench/queries.js';
import { fmtBytes, fmtLatency, fmtMs, machineLine, printTable, type Row } from './bench/report-table.js';
import { copyDiscoveredTree, dirBytes, makeTempDir, removeTempDir } from './bench/temp-tree.js';

const USAGE = 'usage: npx tsx scripts/bench-index.ts <root> [--cache-dir D] [--queries 200] [--sample 300] [--seed 1] [--keep]';

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2), { values: ['cache-dir', 'queries', 'sample', 'seed'], booleans: ['keep'] });
  const rootArg = args.positional[0];
  if (rootArg === undefined) throw new BenchUsageError('Missing <root>.');
  const nQueries = intFlag(args, 'queries', 200);
  const nSample = intFlag(args, 'sample', 300);
  const seed = intFlag(args, 'seed', 1);
  const startedLoad = machineLine();

  const work = await makeTempDir('index');
  const tree = path.join(work, path.basename(path.resolve(rootArg)));
  const cacheParent = args.values.get('cache-dir');
  const cacheDir = cacheParent ? await mkdtemp(path.join(path.resolve(cacheParent), 'codescout-bench-')) : path.join(work, 'cache');
  const copied = await copyDiscoveredTree({ root: path.resolve(rootArg), dest: tree });
  const index = await openIndex({ root: tree, cacheDir, offline: true });
  try {
    process.stderr.write(`building ${copied.length} files from ${rootArg} in ${tree}\n`);
    const build = await buildFresh(index);
    const { chunks, files } = build.report;

    process.stderr.write(`embedder alone on ${nSample} of the index's chunk texts\n`);
    const texts = await sampleEmbedTexts({ root: tree, n: nSample, seed, maxTokens: index.config.model.maxTokens });
    const alone = await measureEmbedThroughput(await index.embedder(), texts, index.config.model);

    process.stderr.write('no-op update, one-file edit\n');
    const noop = await noopUpdate(index);
    const edit = await oneFileEdit(index, seed);

    const queries = await queriesFromIndex(index, { n: nQueries, seed });
    process.stderr.write(`search latency over ${queries.length} queries x 3 modes\n`);
    const latency = {
      vector: await searchLatency(index, queries, 'vector'),
      lexical: await searchLatency(index, queries, 'lexical'),
      hybrid: await searchLatency(index, queries, 'hybrid'),
    };

    const rows: Row[] = [
      ['corpus', `${files} files, ${chunks} chunks`, path.resolve(rootArg)],
      ...buildRows(index, build, alone),
      ['no-op update', `${(noop.ms / 1000).toFixed(3)} s`, `${noop.report.filesChanged} files changed`],
      ['one-file edit', fmtMs(edit.editMs), `${edit.path}: ${edit.edit.embedded} embedded, ${edit.edit.reused} reused`],
      ['one-file restore', fmtMs(edit.restoreMs), `${edit.restore.embedded} embedded, ${edit.restore.reused} reused`],
      ...(['vector', 'lexical', 'hybrid'] as const).map((m): Row => [`search ${m}`, fmtLatency(latency[m]), `max ${fmtMs(latency[m].max)}, ${latency[m].n} queries, k 10`]),
    ];
    await index.close();
    // Closing checkpoints SQLite's write-ahead log into the database: the size a user sees at rest.
    const atRest = await dirBytes(index.indexDir);
    rows.push(['bytes on disk at rest', fmtBytes(atRest), `${(atRest / Math.max(1, build.report.chunks)).toFixed(0)} bytes/chunk after close()`]);
    printTable({ title: 'codescout bench-index', startedLoad, rows });
  } finally {
    await index.close();
    if (args.flags.has('keep')) process.stderr.write(`kept ${work}${cacheParent ? ` and ${cacheDir}` : ''}\n`);
    else {
      await removeTempDir(work);
      if (cacheParent) await removeTempDir(cacheDir);
    }
  }
}

await runScript(USAGE, main);
