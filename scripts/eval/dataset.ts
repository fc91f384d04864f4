import { readFile } from 'node:fs/promises';
import { resolveBlankRule, type BlankRule } from './blank-rules.js';
import { EvalInputError } from './errors.js';

/** The two task kinds of the eval README. */
export type DatasetKind = 'doc2code' | 'commit2files';

/** Line 1 of a dataset file: what the corpus is and how to build it. */
export interface DatasetHeader {
  readonly name: string;
  readonly kind: DatasetKind;
  readonly split: string;
  readonly repo: string;
  readonly commit: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly blankJsdoc: boolean;
  /** What to blank before indexing (from `blank_rule`, else `blank_jsdoc`); null: nothing. */
  readonly blankRule: BlankRule | null;
  readonly count: number;
  readonly corpusFiles: number;
  readonly corpusBytes: number;
}

/** A gold location: doc2code entries carry the declaration's symbol and 1-based inclusive lines. */
export interface GoldEntry {
  readonly path: string;
  readonly symbol?: string;
  readonly startLine?: number;
  readonly endLine?: number;
}

/** One task. Only `query` may reach the system under test. */
export interface EvalTask {
  readonly id: string;
  readonly query: string;
  readonly gold: readonly GoldEntry[];
}

/** A parsed and checked dataset. */
export interface Dataset {
  readonly file: string;
  readonly header: DatasetHeader;
  readonly tasks: readonly EvalTask[];
}

type Json = Record<string, unknown>;

/**
 * Reads and checks a dataset JSONL file (header line, then one task per line).
 * @throws EvalInputError naming the file and line for a missing file, bad JSON or a malformed field.
 */
export async function loadDataset(file: string): Promise<Dataset> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new EvalInputError(`Cannot read dataset ${file}: ${(error as NodeJS.ErrnoException).code ?? error}. Pass an existing .jsonl file to --dataset.`, file, { cause: error });
  }
  return parseDataset(text, file);
}

/** Parses dataset text; `file` only names the source in messages. @throws EvalInputError */
export function parseDataset(text: string, file: string): Dataset {
  const lines = text.split('\n').map((l) => l.trim());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  if (lines.length === 0) throw new EvalInputError(`Dataset ${file} is empty; line 1 must be the header.`, file);
  const fail = (line: number, what: string): never => {
    throw new EvalInputError(`Dataset ${file} line ${line}: ${what}.`, file);
  };
  const rows = lines.map((line, i) => {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(i + 1, 'not a JSON object');
      return value as Json;
    } catch (error) {
      if (error instanceof EvalInputError) throw error;
      return fail(i + 1, `invalid JSON (${(error as Error).message})`);
    }
  });
  const header = parseHeader(rows[0] as Json, (what) => fail(1, what));
  const tasks = rows.slice(1).map((row, i) => parseTask(row, header.kind, (what) => fail(i + 2, what)));
  const seen = new Set<string>();
  tasks.forEach((t, i) => {
    if (seen.has(t.id)) fail(i + 2, `duplicate task id "${t.id}"`);
    seen.add(t.id);
  });
  if (tasks.length !== header.count) {
    throw new EvalInputError(`Dataset ${file} has ${tasks.length} tasks but its header says count ${header.count}. The file is truncated or edited.`, file);
  }
  return { file, header, tasks };
}

function parseHeader(h: Json, fail: (what: string) => never): DatasetHeader {
  if (h.type !== 'header') fail('the first line must have "type": "header"');
  const kind = h.kind;
  if (kind !== 'doc2code' && kind !== 'commit2files') fail(`"kind" must be doc2code or commit2files, got ${JSON.stringify(kind)}`);
  const str = (key: string): string => (typeof h[key] === 'string' && h[key] !== '' ? (h[key] as string) : fail(`"${key}" must be a non-empty string`));
  const count = (key: string): number => (Number.isInteger(h[key]) && (h[key] as number) >= 0 ? (h[key] as number) : fail(`"${key}" must be a non-negative integer`));
  const globs = (key: string, required: boolean): string[] => {
    const v = h[key] ?? (required ? undefined : []);
    if (!Array.isArray(v) || v.some((g) => typeof g !== 'string' || g === '')) return fail(`"${key}" must be a list of glob strings`);
    return v as string[];
  };
  const commit = str('commit');
  if (!/^[0-9a-f]{7,40}$/i.test(commit)) fail(`"commit" must be a commit id, got "${commit}"`);
  if (typeof h.blank_jsdoc !== 'boolean') fail('"blank_jsdoc" must be true or false');
  if (h.blank_rule !== undefined && typeof h.blank_rule !== 'string') fail('"blank_rule" must be a string');
  const blank = resolveBlankRule(h.blank_jsdoc as boolean, h.blank_rule as string | undefined);
  if ('error' in blank) fail(blank.error);
  const include = globs('include', true);
  if (include.length === 0) fail('"include" must list at least one glob');
  return {
    name: str('name'),
    kind: kind as DatasetKind,
    split: typeof h.split === 'string' ? h.split : '',
    repo: str('repo'),
    commit,
    include,
    exclude: globs('exclude', false),
    blankJsdoc: h.blank_jsdoc as boolean,
    blankRule: 'rule' in blank ? blank.rule : null,
    count: count('count'),
    corpusFiles: count('corpus_files'),
    corpusBytes: count('corpus_bytes'),
  };
}

function parseTask(t: Json, kind: DatasetKind, fail: (what: string) => never): EvalTask {
  if (typeof t.id !== 'string' || t.id === '') fail('"id" must be a non-empty string');
  if (typeof t.query !== 'string' || t.query.trim() === '') fail(`task ${String(t.id)}: "query" must be a non-empty string`);
  if (!Array.isArray(t.gold) || t.gold.length === 0) fail(`task ${String(t.id)}: "gold" must be a non-empty list`);
  const gold = (t.gold as unknown[]).map((g) => {
    const e = (typeof g === 'object' && g !== null ? g : {}) as Json;
    if (typeof e.path !== 'string' || e.path === '') fail(`task ${String(t.id)}: every gold entry needs a "path"`);
    if (kind === 'commit2files') return { path: e.path as string };
    const line = (key: string): number => (Number.isInteger(e[key]) && (e[key] as number) >= 1 ? (e[key] as number) : fail(`task ${String(t.id)}: gold "${key}" must be a line number >= 1`));
    const startLine = line('startLine');
    const endLine = line('endLine');
    if (endLine < startLine) fail(`task ${String(t.id)}: gold endLine ${endLine} is before startLine ${startLine}`);
    return { path: e.path as string, symbol: typeof e.symbol === 'string' ? e.symbol : '', startLine, endLine };
  });
  // Only id, query and gold are kept: provenance fields (commit, type) must never reach the system under test.
  return { id: t.id as string, query: (t.query as string).trim(), gold };
}
