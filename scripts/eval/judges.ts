/**
 * Judges for the eval's stepwise sessions. `builtin` is the product (the built-in evaluator's verdicts); `oracle`
 * and `noisy:<p>` know the gold answer and measure the loop's headroom: diagnostics, never product figures.
 */
import { seededRandom } from '../../src/retrieve/seeded-random.js';
import type { Judgement, SessionCandidate } from '../../src/index.js';
import { EvalUsageError } from './errors.js';

/** Relevance the knowing judges give: gold files implement the target, others are irrelevant. */
export const ORACLE_RELEVANCE = Object.freeze({ gold: 0.85, other: 0.1 });

/** Which judge a run uses. */
export type JudgeSpec =
  | { readonly kind: 'builtin' }
  | { readonly kind: 'learned' }
  | { readonly kind: 'heuristic' }
  | { readonly kind: 'oracle' }
  | { readonly kind: 'noisy'; readonly p: number };

/** The built-in judge a spec asks for (undefined: the default one). */
export function builtinJudgeOf(spec: JudgeSpec): 'learned' | 'heuristic' | undefined {
  return spec.kind === 'learned' || spec.kind === 'heuristic' ? spec.kind : undefined;
}

/** Judges one cycle's candidates of one task; `[]` keeps the built-in judge's hints. */
export type EvalJudge = (candidates: readonly SessionCandidate[]) => Judgement[];

/** @throws EvalUsageError for anything but builtin, learned, heuristic, oracle or noisy:<p> with p in [0, 1]. */
export function parseJudge(raw: string): JudgeSpec {
  if (raw === 'builtin' || raw === 'learned' || raw === 'heuristic' || raw === 'oracle') return { kind: raw };
  const m = /^noisy:(\d*\.?\d+)$/.exec(raw);
  const p = m ? Number(m[1]) : NaN;
  if (!(p >= 0 && p <= 1)) throw new EvalUsageError(`--judge: use builtin, learned, heuristic, oracle or noisy:<p> with p from 0 to 1 (e.g. noisy:0.2); got "${raw}".`);
  return { kind: 'noisy', p };
}

/** A label for reports that says the knowing judges are diagnostics. */
export function judgeLabel(spec: JudgeSpec): string {
  if (spec.kind === 'builtin' || spec.kind === 'learned' || spec.kind === 'heuristic') return spec.kind;
  return `${spec.kind === 'oracle' ? 'oracle' : `noisy:${spec.p}`} (knows the gold: a diagnostic of headroom, not a product figure)`;
}

/**
 * The judge of one task. `noisy:p` misses a gold file with probability p and calls a non-gold file high with
 * probability p/2; every judgement is its own draw (seeded by task, cycle and path).
 */
export function createEvalJudge(spec: JudgeSpec, o: { taskId: string; gold: ReadonlySet<string> }): EvalJudge {
  if (spec.kind === 'builtin' || spec.kind === 'learned' || spec.kind === 'heuristic') return () => [];
  let cycle = 0;
  const isHigh = (path: string): boolean => {
    if (spec.kind === 'oracle') return o.gold.has(path);
    const draw = seededRandom(hash(`${o.taskId}\u0000${cycle}\u0000${path}`))();
    return o.gold.has(path) ? draw >= spec.p : draw < spec.p / 2;
  };
  return (candidates) => {
    cycle++;
    return candidates.map((c) =>
      isHigh(c.path)
        ? { path: c.path, relevance: ORACLE_RELEVANCE.gold, reason: `${spec.kind} judge: implements the task` }
        : { path: c.path, relevance: ORACLE_RELEVANCE.other, reason: `${spec.kind} judge: irrelevant` },
    );
  };
}

/** FNV-1a, 32 bits: a stable seed from a string. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
