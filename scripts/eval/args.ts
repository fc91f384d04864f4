/** Command-line flags of scripts/eval.ts, parsed and checked. */
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MODEL_ID, MODELS } from '../../src/index.js';
import { CHUNK_ORDERS, EVAL_MODES, type ChunkOrder, type EvalMode } from './answer.js';
import { EvalUsageError } from './errors.js';
import { parseJudge, type JudgeSpec } from './judges.js';

/** Checked options of one eval run. */
export interface EvalArgs {
  readonly dataset: string;
  readonly corpus: string;
  readonly modes: readonly EvalMode[];
  readonly model: string;
  readonly limit: number | null;
  /** null: no JSON; '-': JSON to stdout (the table then goes to stderr); else a file. */
  readonly json: string | null;
  readonly cacheDir: string | null;
  readonly workDir: string;
  readonly fresh: boolean;
  /** Chunks per one-shot search, or null: search until {@link files} distinct files. */
  readonly k: number | null;
  /** One-shot modes without --k: chunks until this many distinct files (the loop modes' R@10 reads ten files). */
  readonly files: number;
  readonly maxCycles: number;
  /** Who judges the loop modes' candidates. */
  readonly judge: JudgeSpec;
  /** How the loop modes' files become one ranked list of chunks (see answer.ts). */
  readonly chunkOrder: ChunkOrder;
  readonly debug: boolean;
  readonly help: boolean;
}

/** Usage text. */
export const USAGE = `usage: npx tsx scripts/eval.ts --dataset <file.jsonl> --corpus <git-dir|folder> [options]
  --modes a,b          modes to run: ${EVAL_MODES.join(', ')} (default: all)
  --model M            ${Object.keys(MODELS).join(' | ')} (default ${DEFAULT_MODEL_ID})
  --limit N            run only the first N tasks
  --json [file]        write the JSON report to file (or stdout; the table then goes to stderr)
  --cache-dir D        index cache (default <tmp>/codescout-eval/<dataset>-<model>, reused between runs)
  --work-dir D         where prepared corpora live (default <tmp>/codescout-eval/corpora)
  --fresh              delete the index cache and prepare the corpus again
  --files N            one-shot modes (lexical, vector, hybrid) return chunks until N distinct files (default 10),
                       so their file-level R@10 compares ten files with the loop's ten
  --k N                one-shot modes return exactly N chunks instead (often only 6-8 distinct files)
  --max-cycles N       cycles of the iterative mode (default 3)
  --judge J            who judges the loop modes: builtin (default), learned, heuristic (the two built-in judges),
                       oracle, noisy:<p> (oracle and noisy know the
                       gold: diagnostics of the loop's headroom, never product figures)
  --chunk-order O      how the loop modes' files become one list of chunks (symbol hit@10 reads its first ten):
                       relevance (default: by the chunks' relevance, each file's best in file order) or
                       round-robin (every file's best chunk, then every file's second, ...)
  --debug              print stacks on errors`;

const VALUE_FLAGS = new Set(['--dataset', '--corpus', '--modes', '--model', '--limit', '--cache-dir', '--work-dir', '--k', '--files', '--max-cycles', '--judge', '--chunk-order']);
const BOOLEAN_FLAGS = new Set(['--fresh', '--debug', '--help', '-h']);

/** @throws EvalUsageError naming the flag for an unknown flag, a missing value or a bad number. */
export function parseArgs(argv: readonly string[]): EvalArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  let json: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = name !== arg ? arg.slice(eq + 1) : undefined;
    if (name === '--json') {
      const next = argv[i + 1];
      json = inline ?? (next !== undefined && !next.startsWith('-') ? (i++, next) : '-');
    } else if (VALUE_FLAGS.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new EvalUsageError(`${name} needs a value.`);
      if (values.has(name)) throw new EvalUsageError(`${name} is given twice; the harness runs one value per run.`);
      values.set(name, value);
    } else if (BOOLEAN_FLAGS.has(name) && inline === undefined) {
      flags.add(name);
    } else {
      throw new EvalUsageError(`Unknown argument "${arg}".`);
    }
  }
  const help = flags.has('--help') || flags.has('-h');
  const dataset = values.get('--dataset');
  const corpus = values.get('--corpus');
  if (!help && dataset === undefined) throw new EvalUsageError('--dataset is required (a .jsonl file from shared/eval).');
  if (!help && corpus === undefined) throw new EvalUsageError('--corpus is required (a git directory or an extracted checkout).');
  const modes = (values.get('--modes') ?? EVAL_MODES.join(',')).split(',').map((m) => m.trim()).filter((m) => m !== '');
  for (const m of modes) {
    if (!(EVAL_MODES as readonly string[]).includes(m)) throw new EvalUsageError(`--modes: unknown mode "${m}"; use ${EVAL_MODES.join(', ')}.`);
  }
  if (modes.length === 0) throw new EvalUsageError(`--modes is empty; use ${EVAL_MODES.join(', ')}.`);
  const model = values.get('--model') ?? DEFAULT_MODEL_ID;
  if (!MODELS[model]) throw new EvalUsageError(`--model: unknown model "${model}"; use ${Object.keys(MODELS).join(', ')}.`);
  if (values.has('--k') && values.has('--files')) throw new EvalUsageError('--k and --files both set how much a one-shot search returns; give one.');
  const int = (flag: string, fallback: number | null, min: number, max: number): number | null => {
    const raw = values.get(flag);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new EvalUsageError(`${flag} must be an integer from ${min} to ${max}, got "${raw}".`);
    return n;
  };
  const cacheDir = values.get('--cache-dir');
  return {
    dataset: path.resolve(dataset ?? ''),
    corpus: path.resolve(corpus ?? ''),
    modes: [...new Set(modes)] as EvalMode[],
    model,
    limit: int('--limit', null, 1, Number.MAX_SAFE_INTEGER),
    json: json === null || json === '-' ? json : path.resolve(json),
    cacheDir: cacheDir === undefined ? null : path.resolve(cacheDir),
    workDir: path.resolve(values.get('--work-dir') ?? path.join(os.tmpdir(), 'codescout-eval', 'corpora')),
    fresh: flags.has('--fresh'),
    k: int('--k', null, 1, 1000),
    files: int('--files', 10, 1, 100)!,
    maxCycles: int('--max-cycles', 3, 1, 5)!,
    judge: parseJudge(values.get('--judge') ?? 'builtin'),
    chunkOrder: chunkOrderOf(values.get('--chunk-order') ?? 'relevance'),
    debug: flags.has('--debug'),
    help,
  };
}

function chunkOrderOf(raw: string): ChunkOrder {
  if (!(CHUNK_ORDERS as readonly string[]).includes(raw)) throw new EvalUsageError(`--chunk-order: use ${CHUNK_ORDERS.join(' or ')}; got "${raw}".`);
  return raw as ChunkOrder;
}

/** Default index cache of a dataset and model, shared by runs so a second run does not re-embed. */
export function defaultCacheDir(datasetName: string, model: string): string {
  return path.join(os.tmpdir(), 'codescout-eval', `${datasetName}-${model}`);
}
