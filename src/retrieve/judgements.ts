import { ConfigError } from '../errors.js';
import type { CandidateFile, Evaluation } from './evaluator.js';
import { DEFINITION_GAP } from './gaps.js';

/** A judge's verdict on one candidate file; only `path` and `relevance` are required. */
export interface Judgement {
  readonly path: string;
  /** 0..1. Bands: 0.8-1 implements the target; 0.5-0.7 related; 0.2-0.4 tangential; < 0.2 irrelevant (excluded). */
  readonly relevance: number;
  readonly reason?: string;
  /** What is still missing to act on this file, e.g. "definition of TokenBucket" or "where the limiter is registered". */
  readonly missingContext?: readonly string[];
  /** Relevance per chunk id (optional; defaults to the file's). */
  readonly chunkRelevance?: Readonly<Record<string, number>>;
}

/** Most judgements one step takes (a cycle has at most a few dozen candidate files). */
export const MAX_JUDGEMENTS = 500;

/**
 * Checks one step's judgements against the cycle's candidates and completes them into evaluations.
 * @throws ConfigError naming the path and what is wrong: a path that is not a candidate of this cycle, a path
 *   judged twice, a relevance outside 0..1, a session that has stopped.
 */
export function checkJudgements(o: { judgements: readonly Judgement[]; candidates: readonly CandidateFile[]; cycle: number; isDone: boolean }): Evaluation[] {
  if (o.isDone) throw new ConfigError('This retrieval has already stopped; read its result instead of judging again.', 'evaluations');
  if (!Array.isArray(o.judgements)) throw new ConfigError('evaluations must be a list of { path, relevance, reason?, missingContext? }.', 'evaluations');
  if (o.judgements.length > MAX_JUDGEMENTS) throw new ConfigError(`${o.judgements.length} evaluations in one step; the limit is ${MAX_JUDGEMENTS}.`, 'evaluations');
  const paths = new Set(o.candidates.map((c) => c.path));
  const seen = new Set<string>();
  return o.judgements.map((j) => {
    const where = typeof j?.path === 'string' ? JSON.stringify(j.path) : 'an evaluation without a path';
    if (typeof j?.path !== 'string' || !paths.has(j.path)) {
      throw new ConfigError(`${where} is not a candidate of cycle ${o.cycle}; judge only the paths listed as candidates.`, 'evaluations');
    }
    if (seen.has(j.path)) throw new ConfigError(`${where} is judged twice in one step; send one evaluation per path.`, 'evaluations');
    seen.add(j.path);
    if (typeof j.relevance !== 'number' || !(j.relevance >= 0 && j.relevance <= 1)) {
      throw new ConfigError(`The relevance of ${where} must be a number from 0 to 1; got ${String(j.relevance)}.`, 'evaluations');
    }
    if (j.reason !== undefined && typeof j.reason !== 'string') throw new ConfigError(`The reason of ${where} must be a string.`, 'evaluations');
    const missing = j.missingContext ?? [];
    if (!Array.isArray(missing) || missing.some((m) => typeof m !== 'string')) {
      throw new ConfigError(`The missingContext of ${where} must be a list of strings.`, 'evaluations');
    }
    return {
      path: j.path,
      relevance: j.relevance,
      reason: j.reason?.trim() || `Judged ${j.relevance.toFixed(2)} by the caller.`,
      missingContext: missing.map((m) => m.trim()).filter((m) => m !== ''),
      ...(j.chunkRelevance ? { chunkRelevance: j.chunkRelevance } : {}),
    };
  });
}

/** Identifier-like words of free text: CamelCase, snake_case, or words with a digit or `$`. */
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/**
 * A judge writes missing context in its own words ("the TokenBucket class it imports"). Adds a
 * `definition of <name>` entry for each identifier in such an entry that the index defines, so the loop looks
 * the definition up; the judge's own words are kept (they become focus areas and expand the query).
 */
export async function namedDefinitions(
  missing: readonly string[],
  definitionPaths: (names: readonly string[]) => Promise<ReadonlyMap<string, readonly string[]>>,
): Promise<string[]> {
  const free = missing.filter((m) => !m.startsWith(DEFINITION_GAP) && !m.startsWith('term "'));
  const words = [...new Set(free.flatMap((m) => m.match(IDENTIFIER) ?? []).filter((w) => w.length >= 3 && /[A-Z_$\d]/.test(w.slice(1)) ))];
  const defined = words.length > 0 ? await definitionPaths(words) : new Map<string, readonly string[]>();
  const named = words.filter((w) => (defined.get(w)?.length ?? 0) > 0).map((w) => `${DEFINITION_GAP}${w}`);
  return [...new Set([...missing, ...named])];
}
