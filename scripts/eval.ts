/**
 * Retrieval evaluation of codescout on a dataset from shared/eval (format, corpus rules and metrics in its
 * README). Builds the corpus, indexes it, runs every task in every mode with only its query text, and prints
 * one table (mode rows x metric columns); `--json` adds a report with every task's outcome.
 * Usage: npx tsx scripts/eval.ts --dataset ../shared/eval/doc2code-es-toolkit.jsonl --corpus /path/to/repo.git
 */
import { stat, rm, writeFile } from 'node:fs/promises';
import { openIndex, CodeIndexError, type CodeIndex, type UpdateProgress, type UpdateReport } from '../src/index.js';
import { answer, type EvalMode } from './eval/answer.js';
import { defaultCacheDir, parseArgs, USAGE, type EvalArgs } from './eval/args.js';
import { prepareCorpus, type PreparedCorpus } from './eval/corpus.js';
import { loadDataset, type Dataset } from './eval/dataset.js';
import { EvalInputError, EvalUsageError } from './eval/errors.js';
import { distinctPaths, meanCycleScores, scoreCycles, scoreTask, summarize, type CycleScore, type ModeSummary, type TaskOutcome } from './eval/metrics.js';
import { builtinJudgeOf, createEvalJudge, judgeLabel } from './eval/judges.js';
import { formatCycleTable, formatHeaderLine, formatTable, type JsonReport, type RunInfo, type TaskRecord } from './eval/report.js';

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Prints indexing progress at most once a second, plus every phase change. */
function progressPrinter(started: number): (p: UpdateProgress) => void {
  let lastMs = 0;
  let lastPhase = '';
  return (p) => {
    const now = performance.now();
    if (p.phase === lastPhase && now - lastMs < 1000 && p.filesDone !== p.filesTotal) return;
    lastMs = now;
    lastPhase = p.phase;
    const elapsed = ((now - started) / 1000).toFixed(1);
    log(`index ${p.phase.padEnd(8)} files ${p.filesDone}/${p.filesTotal}  chunks embedded ${p.chunksEmbedded}  ${elapsed} s${p.message ? `  ${p.message}` : ''}`);
  };
}

async function buildIndex(args: EvalArgs, corpus: PreparedCorpus, cacheDir: string): Promise<{ index: CodeIndex; report: UpdateReport }> {
  if (args.fresh) await rm(cacheDir, { recursive: true, force: true });
  const started = performance.now();
  const index = await openIndex({ root: corpus.dir, cacheDir, model: args.model, onProgress: progressPrinter(started) });
  try {
    const report = await index.update({ onProgress: progressPrinter(started) });
    log(`index done: ${report.files} files, ${report.chunks} chunks, ${report.embedded} embedded, ${report.reused} reused, ${report.skipped.length} skipped, ${report.seconds} s`);
    for (const s of report.skipped) log(`  skipped ${s.path}: ${s.reason}`);
    return { index, report };
  } catch (error) {
    await index.close();
    throw error;
  }
}

/** Corpus files the index does not hold (discovery rules of codescout may leave some out): gold there is unreachable. */
async function reportNotIndexed(index: CodeIndex, corpus: PreparedCorpus, dataset: Dataset): Promise<string[]> {
  const indexed = new Set((await index.store.catalog.listFiles()).map((f) => f.path));
  const missing = corpus.files.filter((f) => !indexed.has(f));
  if (missing.length > 0) {
    const missingSet = new Set(missing);
    const unreachable = dataset.tasks.filter((t) => t.gold.some((g) => missingSet.has(g.path))).length;
    log(`warning: ${missing.length} corpus files are not in the index (e.g. ${missing.slice(0, 3).join(', ')}); ${unreachable} tasks have gold among them.`);
  }
  return missing;
}

async function runMode(o: { index: CodeIndex; dataset: Dataset; mode: EvalMode; args: EvalArgs }): Promise<{ summary: ModeSummary; records: TaskRecord[] }> {
  const { index, dataset, mode, args } = o;
  // One untimed query loads the model and any per-index state, so latency measures queries alone.
  await answer(index, { mode, query: 'warm up the model before timing', k: args.k, files: args.files, maxCycles: args.maxCycles });
  const outcomes: TaskOutcome[] = [];
  const records: TaskRecord[] = [];
  const cycleScores: CycleScore[][] = [];
  const loop = mode === 'single' || mode === 'iterative';
  const started = performance.now();
  for (const [i, task] of dataset.tasks.entries()) {
    const t0 = performance.now();
    const judge = createEvalJudge(args.judge, { taskId: task.id, gold: new Set(task.gold.map((g) => g.path)) });
    const a = await answer(index, { mode, query: task.query, k: args.k, files: args.files, maxCycles: args.maxCycles, judge, builtinJudge: builtinJudgeOf(args.judge), chunkOrder: args.chunkOrder });
    const latencyMs = performance.now() - t0;
    const score = scoreTask({ kind: dataset.header.kind, results: a.results, gold: task.gold });
    const files = distinctPaths(a.results);
    if (loop && a.perCycle) {
      cycleScores.push(scoreCycles({ kind: dataset.header.kind, gold: task.gold, perCycle: a.perCycle, cycles: mode === 'single' ? 1 : args.maxCycles }));
    }
    outcomes.push({ score, cycles: a.cycles, files: files.length, latencyMs });
    records.push({ files: files.slice(0, 10), chunks: a.labels.slice(0, 10), score, cycles: a.cycles, latencyMs: Math.round(latencyMs), stoppedBecause: a.stoppedBecause });
    if ((i + 1) % 25 === 0 || i + 1 === dataset.tasks.length) {
      log(`${mode}: ${i + 1}/${dataset.tasks.length} tasks, ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  }
  const summary = summarize(outcomes);
  return { summary: loop ? { ...summary, perCycle: meanCycleScores(cycleScores) } : summary, records };
}

async function main(args: EvalArgs): Promise<void> {
  const loaded = await loadDataset(args.dataset);
  const dataset: Dataset = { ...loaded, tasks: args.limit === null ? loaded.tasks : loaded.tasks.slice(0, args.limit) };
  const { header } = dataset;
  if (!(await stat(args.corpus).catch(() => null))?.isDirectory()) {
    throw new EvalInputError(`--corpus ${args.corpus} is not a folder. Pass a git directory (e.g. a bare clone of ${header.repo}) or an extracted checkout.`, args.corpus);
  }
  const corpus = await prepareCorpus({ header, datasetFile: args.dataset, source: args.corpus, workDir: args.workDir, fresh: args.fresh, onStep: (m) => log(`corpus: ${m}`) });
  log(`corpus: ${corpus.files.length} files, ${corpus.bytes} bytes ${corpus.reused ? '(reused)' : '(prepared)'} in ${corpus.dir}`);
  const cacheDir = args.cacheDir ?? defaultCacheDir(header.name, args.model);
  const { index, report } = await buildIndex(args, corpus, cacheDir);
  try {
    const notIndexed = await reportNotIndexed(index, corpus, dataset);
    const stats = await index.stats();
    const info: RunInfo = {
      dataset: header.name, kind: header.kind, tasks: dataset.tasks.length, repo: header.repo, commit: header.commit, corpus: args.corpus,
      corpusFiles: corpus.files.length, model: args.model, indexedFiles: stats.files, indexedChunks: stats.chunks,
      buildSeconds: report.seconds, embedded: report.embedded, k: args.k, files: args.files,
    };
    const rows: Array<{ mode: string; summary: ModeSummary }> = [];
    const perMode = new Map<string, TaskRecord[]>();
    for (const mode of args.modes) {
      const { summary, records } = await runMode({ index, dataset, mode, args });
      rows.push({ mode, summary });
      perMode.set(mode, records);
    }
    const loops = rows.filter((r) => r.summary.perCycle);
    const cycleTable = loops.length > 0 ? `\n${formatCycleTable(loops, judgeLabel(args.judge))}\n` : '';
    const text = `${formatHeaderLine(info)} | judge ${judgeLabel(args.judge)}\n${formatTable(header.kind, rows)}\n${cycleTable}`;
    if (args.json === '-') process.stderr.write(text);
    else process.stdout.write(text);
    if (args.json !== null) {
      const json: JsonReport = {
        info,
        modes: Object.fromEntries(rows.map((r) => [r.mode, r.summary])),
        notIndexed,
        tasks: dataset.tasks.map((t, i) => ({ id: t.id, query: t.query, gold: t.gold, modes: Object.fromEntries([...perMode].map(([m, recs]) => [m, recs[i]!])) })),
      };
      const body = `${JSON.stringify(json, null, 2)}\n`;
      if (args.json === '-') process.stdout.write(body);
      else {
        await writeFile(args.json, body);
        log(`json report: ${args.json}`);
      }
    }
  } finally {
    await index.close();
  }
}

let args: EvalArgs | undefined;
try {
  args = parseArgs(process.argv.slice(2));
  if (args.help) process.stdout.write(`${USAGE}\n`);
  else await main(args);
} catch (error) {
  const usage = error instanceof EvalUsageError;
  const known = usage || error instanceof EvalInputError || error instanceof CodeIndexError;
  process.stderr.write(`eval: ${known ? (error as Error).message : `unexpected error: ${(error as Error)?.message ?? String(error)} (run with --debug for the stack)`}\n`);
  if (usage) process.stderr.write('Run with --help for the options.\n');
  else if (args?.debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exitCode = usage ? 2 : 1;
}
