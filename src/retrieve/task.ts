import { DEFAULTS } from '../config.js';
import { ConfigError } from '../errors.js';

/** Longest task text accepted, in characters: a task is a request, not a file. */
export const MAX_TASK_CHARS = 10_000;

/** What the caller wants context for. */
export interface Task {
  /** The request in natural language, e.g. "add rate limiting to the API endpoints". */
  text: string;
  /** Globs to search within (relative POSIX paths). */
  patterns?: string[];
  /** Extra words or identifiers the caller already knows. */
  keywords?: string[];
  /** Globs to leave out. */
  excludes?: string[];
  /** Topics the search should also cover. */
  focusAreas?: string[];
  /** Most cycles to run (1..5, default 3). */
  maxCycles?: number;
  /** High-relevance files needed to stop early (default 3). */
  minHigh?: number;
  /** Relevance a result needs to count as high (default 0.7). */
  highThreshold?: number;
}

/** Most files a task may ask for before the loop stops early (`minHigh`). */
export const MAX_MIN_HIGH = 50;

/** A task with every field present and checked. */
export type ResolvedTask = Required<Task>;

/**
 * Checks and completes a task.
 * @throws ConfigError naming the field: empty or oversized text, bad numbers, non-string list items.
 */
export function resolveTask(task: Task): ResolvedTask {
  if (typeof task?.text !== 'string' || task.text.trim() === '') {
    throw new ConfigError('The task text is empty. Describe what you need, e.g. "where are API requests rate limited".', 'text');
  }
  if (task.text.length > MAX_TASK_CHARS) {
    throw new ConfigError(`The task text has ${task.text.length} characters; the limit is ${MAX_TASK_CHARS}. Shorten it to the request itself.`, 'text');
  }
  const maxCycles = intIn(task.maxCycles ?? DEFAULTS.maxCycles, 1, 5, 'maxCycles');
  const minHigh = intIn(task.minHigh ?? DEFAULTS.minHigh, 1, MAX_MIN_HIGH, 'minHigh');
  const highThreshold = task.highThreshold ?? DEFAULTS.highThreshold;
  if (typeof highThreshold !== 'number' || !(highThreshold > 0 && highThreshold <= 1)) {
    throw new ConfigError(`highThreshold must be a number in (0, 1]; got ${describeValue(highThreshold)}.`, 'highThreshold');
  }
  return {
    text: task.text.trim(),
    patterns: strings(task.patterns, 'patterns'),
    keywords: strings(task.keywords, 'keywords'),
    excludes: strings(task.excludes, 'excludes'),
    focusAreas: strings(task.focusAreas, 'focusAreas'),
    maxCycles,
    minHigh,
    highThreshold,
  };
}

function intIn(value: unknown, min: number, max: number, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${field} must be a whole number from ${min} to ${max}; got ${describeValue(value)}.`, field);
  }
  return value;
}

/** A short description of any value, even one without a prototype (String() would throw on it). */
function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

function strings(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new ConfigError(`${field} must be a list of strings.`, field);
  }
  return (value as string[]).map((v) => v.trim()).filter((v) => v !== '');
}
