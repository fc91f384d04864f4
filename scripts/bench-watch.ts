/**
 * Save-to-searchable latency through the file watcher, then a many-file "branch switch".
 * Usage: npx tsx scripts/bench-watch.ts [root] [--edits 100] [--branch-files 500] [--seed 1] [--keep]
 * Default root: the es-toolkit eval corpus. Its discovered files are copied to a temp folder (as many copies
 * as the branch switch needs files) and only the copy is indexed and edited.
 */
import path from 'node:path';
import { openIndex } from '../src/index.js';
import { watchIndex } from '../src/watch/watch-index.js';
import { discoverFiles } from '../src/discover/index.js';
import { intFlag, parseBenchArgs, runScript } from './bench/cli-args.js';
import { processPeakRssBytes, timed } from './bench/measure.js';
import { fmtBytes, fmtLatency, fmtMs, machineLine, printTable, type Row } from './bench/report-table.js';
import { copyDiscoveredTree, makeTempDir, removeTempDir } from './bench/temp-tree.js';
import { branchSwitch, saveToSearchable } from './bench/watch-phases.js';

const USAGE = 'usage: npx tsx scripts/bench-watch.ts [root] [--edits 100] [--branch-files 500] [--seed 1] [--keep]';
const DEFAULT_ROOT = '/tmp/codescout-eval/corpora/doc2code-es-toolkit-a1918b04e0e4/corpus';
/** An edit slower than this is listed by name. */
const SLOW_MS = 1000;

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2), { values: ['edits', 'branch-files', 'seed'], booleans: ['keep'] });
  const root = path.resolve(args.positional[0] ?? DEFAULT_ROOT);
  const edits = intFlag(args, 'edits', 100);
  const branchFiles = intFlag(args, 'branch-files', 500);
  const seed = intFlag(args, 'seed', 1);
  const startedLoad = machineLine();
  const rss = (): string => fmtBytes(process.memoryUsage.rss());

  const work = await makeTempDir('watch');
  const tree = path.join(work, 'tree');
  const codeFiles = (await discoverFiles({ root })).files.filter((f) => /^(typescript|tsx|javascript|jsx)$/.test(f.language)).length;
  const copies = Math.max(1, Math.ceil(branchFiles / Math.max(1, codeFiles)));
  const copied = await copyDiscoveredTree({ root, dest: tree, copies });
  const index = await openIndex({ root: tree, cacheDir: path.join(work, 'cache'), offline: true });
  try {
    process.stderr.write(`building ${copied.length} files (${copies} copies of ${root})\n`);
    const build = await timed(() => index.update());
    const rssBuilt = rss();
    const watcher = watchIndex(index);
    const start = await timed(() => watcher.ready);
    try {
      process.stderr.write(`${edits} sequential edits\n`);
      const save = await saveToSearchable(index, watcher, { edits, seed, timeoutMs: 15_000, slowMs: SLOW_MS });
      const rssEdited = rss();
      process.stderr.write(`branch switch: ${branchFiles} files\n`);
      const sw = await branchSwitch(index, watcher, { count: branchFiles, seed, timeoutMs: 300_000, stageDir: path.join(work, 'stage') });
      const rssSwitched = rss();
      const slowList = save.slow.map((s) => `${s.mode} ${s.ms === null ? 'never' : `${s.ms} ms`} ${s.path}`);
      const rows: Row[] = [
        ['corpus', `${build.value.files} files, ${build.value.chunks} chunks`, `${copies} x ${root}`],
        ['initial build', `${(build.ms / 1000).toFixed(1)} s`, `${build.value.embedded} embedded, ${build.value.reused} reused (copies share vectors)`],
        ['watcher ready', fmtMs(start.ms), 'chokidar scan + reconcile update()'],
        ['save -> searchable, lexical', fmtLatency(save.lexical), `max ${fmtMs(save.lexical.max)}, ${save.lexical.n}/${edits} edits found`],
        ['save -> searchable, hybrid', fmtLatency(save.hybrid), `max ${fmtMs(save.hybrid.max)}, ${save.hybrid.n}/${edits} edits found`],
        ['watcher batch apply', fmtLatency(save.apply), `max ${fmtMs(save.apply.max)}, ${save.apply.n} batches (WatchBatch.ms)`],
        [`edits over ${SLOW_MS} ms or lost`, String(save.slow.length), slowList.slice(0, 5).join('; ') + (slowList.length > 5 ? '; ...' : '')],
        ['branch switch: files written', String(sw.files), `by cp in ${fmtMs(sw.writeMs)}`],
        ['branch switch: absorbed', `${(sw.absorbedMs / 1000).toFixed(2)} s`, sw.absorbedAll ? 'first write -> every new file size in the catalog' : 'TIMED OUT before every file was absorbed'],
        ['branch switch: watcher idle', `${(sw.idleMs / 1000).toFixed(2)} s`, `${sw.batches} batches (${sw.fullPasses} full passes), ${sw.filesChanged} files changed`],
        ['branch switch: embedded/reused', `${sw.embedded} / ${sw.reused}`, `last probe searchable: ${sw.lastProbeFound}`],
        ['watcher errors', String(save.errors.length + sw.errors.length), [...save.errors, ...sw.errors].slice(0, 3).join('; ')],
        ['RSS built / edited / switched', `${rssBuilt} / ${rssEdited} / ${rssSwitched}`, `process lifetime peak ${fmtBytes(processPeakRssBytes())}`],
      ];
      printTable({ title: 'codescout bench-watch', startedLoad, rows });
    } finally {
      await watcher.close();
    }
  } finally {
    await index.close();
    if (args.flags.has('keep')) process.stderr.write(`kept ${work}\n`);
    else await removeTempDir(work);
  }
}

await runScript(USAGE, main);
