import type { CodeIndex } from '../code-index.js';
import { ConfigError } from '../errors.js';
import type { BuiltinJudge } from '../retrieve/builtin-evaluator.js';
import { LOOP_TUNING } from '../retrieve/dispatch.js';
import { LOW_RELEVANCE } from '../retrieve/refine.js';
import { startRetrieval } from '../retrieve/retrieval-session.js';
import { MAX_MIN_HIGH, type Task } from '../retrieve/task.js';
import { judgeCycle, JUDGE_COMMAND_LIMITS } from './judge-command.js';
import { retrieve } from '../retrieve/retrieve.js';
import type { ResultFile, RetrievalResult } from '../retrieve/retrieval-result.js';
import { indexOptions, parsePositiveInt, waitingNote, type IndexCliOptions } from './index-commands.js';
import { openedIndex, type IndexAccess } from './index-access.js';
import { eprintln, printJson, println, type CliIO } from './output.js';

/** Longest `--judge-timeout`, in seconds (a day; Node's timers overflow past 24.8 days). */
const MAX_JUDGE_TIMEOUT_S = 86_400;

/** Options of `codescout query`. */
export interface QueryCliOptions extends IndexCliOptions {
  root?: string;
  keywords?: string[];
  patterns?: string[];
  exclude?: string[];
  maxCycles?: string;
  minHigh?: string;
  single?: boolean;
  judgeCmd?: string;
  judge?: string;
  judgeTimeout?: string;
}

/** `codescout query "<text>"`, the iterative retrieval loop, in-process (see `servedOrInProcess` for the warm path). */
export async function runQuery(io: CliIO, text: string, o: QueryCliOptions): Promise<number> {
  // --exclude of a query narrows its search; it is not the index's discovery globs.
  return queryWith(io, text, o, openedIndex(io, indexOptions(o.root, { cacheDir: o.cacheDir, model: o.model, modelDir: o.modelDir, store: o.store, repo: o.repo, ref: o.ref })));
}

/** The loop itself, on an index opened for it or held by a server: checks the options, retrieves, prints. */
export async function queryWith(io: CliIO, text: string, o: QueryCliOptions, access: IndexAccess): Promise<number> {
  const maxCycles = o.single ? 1 : parsePositiveInt(o.maxCycles ?? '3', '--max-cycles');
  const minHigh = o.minHigh === undefined ? undefined : parsePositiveInt(o.minHigh, '--min-high', MAX_MIN_HIGH);
  if (o.judgeCmd !== undefined && o.judgeCmd.trim() === '') throw new ConfigError('--judge-cmd is empty. Give the command that judges, e.g. --judge-cmd "python judge.py".', '--judge-cmd');
  if (o.judge !== undefined && o.judge !== 'learned' && o.judge !== 'heuristic') {
    throw new ConfigError(`--judge must be learned or heuristic (the built-in judges); got "${o.judge}". An outside judge is --judge-cmd.`, '--judge');
  }
  const builtinJudge = o.judge as BuiltinJudge | undefined;
  const timeoutMs = o.judgeTimeout === undefined ? JUDGE_COMMAND_LIMITS.timeoutMs : parsePositiveInt(o.judgeTimeout, '--judge-timeout', MAX_JUDGE_TIMEOUT_S) * 1000;
  return access(async (index) => {
    const waiting = await waitingNote(index);
    if (waiting !== null) eprintln(io, waiting.note);
    const task = { text, keywords: o.keywords, patterns: o.patterns, excludes: o.exclude, maxCycles, minHigh };
    // Down to the tangential band, so people see near misses; the JSON keeps the documented related band.
    const relatedThreshold = LOW_RELEVANCE;
    const result = o.judgeCmd === undefined
      ? await retrieve(index, task, { builtinJudge, relatedThreshold })
      : await retrieveJudgedBy(io, index, task, { command: o.judgeCmd, timeoutMs, builtinJudge, relatedThreshold });
    const inBand = result.related.filter((f) => f.relevance >= LOOP_TUNING.relatedThreshold);
    // The library's rule: with nothing in the related band or above, the nearest files stand in.
    const related = inBand.length > 0 || result.results.length > 0 ? inBand : result.related.slice(0, LOOP_TUNING.nearMisses);
    if (o.json) printJson(io, { ...result, related });
    else printHuman(io, { ...result, related: inBand }, { chunks: (await index.stats()).chunks, nearMisses: result.related.filter((f) => !inBand.includes(f)) });
    return 0;
  });
}

/** The loop with an outside judge: the command judges every cycle's candidates. */
async function retrieveJudgedBy(
  io: CliIO,
  index: CodeIndex,
  task: Task,
  o: { command: string; timeoutMs: number; builtinJudge?: BuiltinJudge; relatedThreshold: number },
): Promise<RetrievalResult> {
  const { command, timeoutMs } = o;
  const session = await startRetrieval(index, task, { builtinJudge: o.builtinJudge, relatedThreshold: o.relatedThreshold });
  while (!session.isDone) {
    eprintln(io, `judge: cycle ${session.cycle}, ${session.candidates().length} candidate files`);
    await judgeCycle(session, { command, timeoutMs, cwd: index.config.root });
  }
  return session.result();
}

function printHuman(io: CliIO, r: RetrievalResult, o: { chunks: number; nearMisses: readonly ResultFile[] }): void {
  if (o.chunks === 0) {
    println(io, 'The index is empty. Run: codescout index');
    return;
  }
  if (r.results.length === 0) println(io, 'No file reached the high-relevance band (0.7).');
  for (const f of r.results) printFile(io, f);
  if (r.related.length > 0) {
    println(io, '');
    println(io, 'related:');
    for (const f of r.related) printFile(io, f);
  }
  if (r.results.length === 0 && o.nearMisses.length > 0) {
    println(io, '');
    println(io, 'near misses (0.2-0.4):');
    for (const f of o.nearMisses.slice(0, 5)) printFile(io, f);
  }
  println(io, '');
  println(io, `cycles (stopped: ${r.stoppedBecause}):`);
  for (const c of r.cycles) {
    println(io, `  ${c.n}. ${c.hits} hits, ${c.newFiles} new files, ${c.high} high, ${c.ms} ms`);
    if (c.query.keywords.length > 0) println(io, `     keywords: ${c.query.keywords.join(', ')}`);
    if (c.newTerms.length > 0) println(io, `     learned:  ${c.newTerms.join(', ')}`);
    if (c.excluded.length > 0) println(io, `     excluded: ${c.excluded.slice(0, 5).join(', ')}${c.excluded.length > 5 ? ` (+${c.excluded.length - 5})` : ''}`);
    if (c.gaps.length > 0) println(io, `     gaps:     ${c.gaps.join(', ')}`);
  }
}

function printFile(io: CliIO, f: ResultFile): void {
  println(io, `${f.relevance.toFixed(2)}  ${f.path}${f.role === 'context' ? '  (context)' : ''}`);
  println(io, `      ${f.reason}`);
  for (const c of f.chunks.slice(0, 4)) {
    println(io, `      ${c.startLine}-${c.endLine}  ${c.kind} ${c.parent ? `${c.parent}.` : ''}${c.symbol} (${c.relevance.toFixed(2)})`);
  }
  if (f.missingContext.length > 0) println(io, `      missing: ${f.missingContext.slice(0, 4).join(', ')}`);
}
