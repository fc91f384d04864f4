/**
 * The machine-readable contracts of codescout: every CLI `--json` output and every MCP tool result, written once
 * as zod schemas and published as JSON Schemas (draft-07, so a default `new Ajv()` validates against them).
 * The MCP server uses the zod forms as its tools' output schemas; tests validate real output against the JSON forms.
 * Objects are closed (`additionalProperties: false`): a new field is a contract change and shows up in the tests.
 */
import * as z from 'zod';
import type { ChunkKind } from './types.js';

/** Every chunk kind, in the order of the ChunkKind type. */
const CHUNK_KINDS = ['function', 'method', 'class', 'interface', 'type', 'enum', 'namespace', 'const', 'export', 'module', 'section', 'text'] as const;
// Compile-time guard: the list above and the ChunkKind type must name the same kinds.
type SameKinds<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const KINDS_MATCH: SameKinds<(typeof CHUNK_KINDS)[number], ChunkKind> = true;
void KINDS_MATCH;

const count = z.number().int().min(0);
const line = z.number().int().min(1).describe('1-based, inclusive');
const relevance = z.number().min(0).max(1);
const seconds = z.number().min(0);
const relPath = z.string().min(1).describe('path relative to the root, POSIX separators');
const kind = z.enum(CHUNK_KINDS);

// ---- shared pieces -------------------------------------------------------------------------------------------

/** One search hit as the CLI and `search_code` report it. */
const SearchHit = z.object({
  path: relPath,
  startLine: line,
  endLine: line,
  symbol: z.string(),
  kind,
  score: z.number().describe('rank score of the fusion: only the order means much'),
  similarity: z.number().min(-1).max(1).optional().describe('cosine similarity of the chunk to the query (about 0..1); absent in lexical mode'),
  text: z.string().optional().describe('the code of the chunk (search_code: within tokenBudget, best hits first; search --json: with --text)'),
  textTruncated: z.literal(true).optional().describe('set when only the first lines of the chunk fitted the budget'),
});

/** Why an index holds nothing to search: never built (`empty`), or emptied after damage and not rebuilt (`reset`). */
const NotReadyState = z.enum(['empty', 'reset']);

/** `search --json` and the `search_code` tool. */
export const SearchOutput = z
  .object({
    hits: z.array(SearchHit),
    indexState: NotReadyState.optional().describe('only when the index has nothing to search; `reset` exits 6'),
    warning: z.string().optional().describe('with indexState: what happened and what to run'),
    tokenBudget: count.optional().describe('search_code: the budget for code, in approximate tokens (chars / 4)'),
    tokensUsed: count.optional().describe('search_code: approximate tokens of the code returned'),
    truncated: z.boolean().optional().describe('search_code: true when some hit\'s code was left out or cut to fit the budget'),
    chunksWaiting: count.optional().describe('only while chunks wait for their vectors (a build in progress or interrupted): how many; those are found by their words only'),
  })
  .describe('hits, best first');

/** IndexStats: what `status --json` and the `index_status` tool share. */
const IndexStatsShape = z.object({
  root: z.string(),
  indexDir: z.string(),
  model: z.string().nullable(),
  dimension: z.number().int().min(1).nullable(),
  revision: z.string().nullable(),
  files: count,
  chunks: count,
  vectors: count,
  cachedVectors: count,
  chunksWaiting: count.describe('chunks written before their vectors (a build in progress or interrupted): found by their words only until embedded; codescout index finishes them'),
  bytesOnDisk: count,
  createdAt: z.string().nullable().describe('ISO 8601'),
  updatedAt: z.string().nullable().describe('ISO 8601'),
  schemaVersion: z.number().int().nullable(),
  indexState: z
    .enum(['ready', 'empty', 'reset'])
    .describe('ready: has chunks; empty: nothing indexed yet; reset: emptied after damage, not yet rebuilt (codescout index)'),
  resetReason: z.string().nullable().describe('what was damaged and where it was moved, when indexState is reset'),
});

/** `status --json`: IndexStats, plus the problems found when run with `--verify` (empty = healthy). */
export const StatusOutput = IndexStatsShape.extend({
  storedFilters: z
    .object({ include: z.array(z.string()), exclude: z.array(z.string()) })
    .nullable()
    .describe('the --include/--exclude globs stored with the index by codescout index (an empty list leaves codescout.json\'s in force); null when none are stored'),
  problems: z.array(z.string()).optional().describe('only with --verify: one line per problem; non-empty exits 6'),
});

/** `index --json`: a summary of the pass (skipped as a count). */
export const IndexOutput = z.object({
  root: z.string(),
  files: count,
  chunks: count,
  embedded: count,
  reused: count,
  removed: count,
  skipped: count,
  seconds,
});

/** The full UpdateReport (skipped files listed): the `reindex` tool. */
export const UpdateReportOutput = z.object({
  root: z.string(),
  files: count.describe('files in the index after the pass'),
  chunks: count.describe('chunks in the index after the pass'),
  filesChanged: count,
  embedded: count.describe('texts sent to the embedder'),
  reused: count.describe('new chunks whose vector came from the cache'),
  removed: count.describe('files removed from the index'),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  seconds,
});

/** A chunk of a result file. `text` is present only when code was asked for. */
const ResultChunk = z.object({
  symbol: z.string(),
  kind,
  parent: z.string().nullable(),
  startLine: line,
  endLine: line,
  relevance,
  text: z.string().optional(),
});

const resultFile = <C extends z.ZodType>(chunk: C) =>
  z.object({
    path: relPath,
    relevance,
    reason: z.string(),
    chunks: z.array(chunk),
    missingContext: z.array(z.string()),
    cycle: z.number().int().min(1),
    role: z.enum(['answer', 'context']).describe('answer: judged on its own evidence; context: a definition an answer uses or a user of one (gap-following)'),
  });

const CycleQuery = z.object({
  text: z.string(),
  keywords: z.array(z.string()),
  patterns: z.array(z.string()),
  excludes: z.array(z.string()),
  focusAreas: z.array(z.string()),
});

const CycleTrace = z.object({
  n: z.number().int().min(1),
  query: CycleQuery,
  hits: count,
  high: count,
  newTerms: z.array(z.string()),
  excluded: z.array(z.string()),
  gaps: z.array(z.string()),
  newFiles: count,
  ms: count,
});

const stoppedBecause = z.enum(['enough', 'max-cycles', 'no-progress']);

/** `query --json`: the RetrievalResult. */
export const QueryOutput = z.object({
  results: z.array(resultFile(ResultChunk)),
  related: z.array(resultFile(ResultChunk)),
  cycles: z.array(CycleTrace),
  stoppedBecause,
});

/** A chunk as `retrieve_context` returns it: with its code when the token budget allowed. */
const BudgetedChunk = ResultChunk.extend({
  textTruncated: z.literal(true).optional().describe('set when only the first lines of the chunk fitted the budget'),
});

/** A chunk of a candidate file offered to a judge: its code (within the token budget) and where it is. */
const CandidateChunk = z.object({
  chunkId: z.string(),
  symbol: z.string(),
  kind,
  parent: z.string().nullable(),
  startLine: line,
  endLine: line,
  text: z.string().optional().describe('the code; left out when the token budget ran out or the file was judged before'),
  textTruncated: z.literal(true).optional().describe('set when only the first lines of the chunk fitted the budget'),
});

/** A file a judge is asked to score in this cycle. */
const Candidate = z.object({
  path: relPath,
  hint: z.object({ relevance, reason: z.string() }).describe("the built-in judge's opinion; it stands when the file is not judged"),
  previous: z.object({ relevance, cycle: z.number().int().min(1) }).optional().describe('your judgement of this file in an earlier cycle'),
  chunks: z.array(CandidateChunk),
});

/** A judge's verdict on one file (the `judge_context` tool and `query --judge-cmd` take a list of these). */
export const JudgementShape = z.object({
  path: relPath.describe('a candidate path of the current cycle'),
  relevance: relevance.describe('0.8-1 implements the task; 0.5-0.7 related; 0.2-0.4 tangential; < 0.2 irrelevant (never shown again)'),
  reason: z.string().optional(),
  missingContext: z.array(z.string()).optional().describe('what is still missing to act on the file, e.g. "definition of TokenBucket"'),
});

/**
 * The `retrieve_context` and `judge_context` tools. `status: done` carries the answer (results, related, cycles,
 * stoppedBecause) with code within the token budget; `status: judge` (only with `judge: "agent"`) carries the
 * session, the cycle and its candidates for the agent to judge with `judge_context`.
 */
export const RetrieveContextOutput = z.object({
  status: z.enum(['done', 'judge']).describe('done: the answer is here; judge: call judge_context with evaluations of the candidates'),
  results: z.array(resultFile(BudgetedChunk)).optional().describe('status done: files at or above the high threshold, best first'),
  related: z.array(resultFile(BudgetedChunk)).optional().describe('status done: files in the related band, best first; when no file reaches it, the nearest files of the tangential band (at most 5)'),
  cycles: z.array(CycleTrace).optional().describe('status done: the cycle trace'),
  stoppedBecause: stoppedBecause.optional(),
  sessionId: z.string().optional().describe('judge: the retrieval session to pass to judge_context'),
  cycle: z.number().int().min(1).optional().describe('judge: the cycle whose candidates are listed'),
  maxCycles: z.number().int().min(1).optional(),
  candidates: z.array(Candidate).optional().describe('judge: the files to judge, the built-in judge\'s best first'),
  tokenBudget: count.describe('the budget for code, in approximate tokens (chars / 4)'),
  tokensUsed: count.describe('approximate tokens of the code returned'),
  truncated: z.boolean().describe('true when some chunk code was left out or cut to fit the budget'),
});

/** What `query --judge-cmd` writes to the judge command's stdin, once per cycle. */
export const JudgeRequest = z.object({
  task: z.object({ text: z.string(), keywords: z.array(z.string()), patterns: z.array(z.string()), excludes: z.array(z.string()) }),
  cycle: z.number().int().min(1),
  maxCycles: z.number().int().min(1),
  learnedTerms: z.array(z.string()).describe('the code base\'s own words for the task, learned from earlier cycles'),
  focusAreas: z.array(z.string()).describe('gaps left open by earlier cycles'),
  bands: z.string().describe('how to score'),
  candidates: z.array(Candidate),
});

/** What a `query --judge-cmd` command prints on stdout: one evaluation per candidate it judges (others keep the hint). */
export const JudgeResponse = z.object({ evaluations: z.array(JudgementShape) });

/** The `index_status` tool: IndexStats plus the watcher state. */
export const IndexStatusOutput = IndexStatsShape.extend({
  watching: z.boolean().describe('true while the file watcher keeps the index live'),
});

/** `model fetch --json`. */
export const ModelFetchOutput = z.object({
  model: z.string(),
  dir: z.string(),
  origin: z.enum(['model-dir', 'models-folder', 'fallback-folder', 'hub', 'maven']),
  dimension: z.number().int().min(1),
  revision: z.string(),
  seconds,
});

/** `model list --json`. */
export const ModelListOutput = z.array(
  z.object({ id: z.string(), hfRepo: z.string(), dimension: z.number().int().min(1), pooling: z.string(), maxTokens: z.number().int().min(1) }),
);

/** One line of `watch --json`. */
export const WatchEventOutput = z.discriminatedUnion('event', [
  z.object({ event: z.literal('ready'), root: z.string(), files: count, chunks: count }),
  z.object({
    event: z.literal('updated'),
    changed: count,
    removed: count,
    fullPass: z.boolean(),
    embedded: count,
    reused: count,
    files: count,
    chunks: count,
    ms: count,
    paths: z
      .object({ changed: z.array(relPath), removed: z.array(relPath) })
      .optional()
      .describe('the root-relative paths of the batch; absent for a full pass (a rescan)'),
  }),
]);

/** One check of `doctor --json`. */
const DoctorCheck = z.object({
  id: z.string().min(1).describe('stable name of the check: node, native:<module>, grammar:<language>, model, models-dir, cache-dir, index'),
  status: z.enum(['ok', 'problem', 'skipped']),
  detail: z.string().describe('what was found'),
  fix: z.string().optional().describe('what to do about a problem'),
});

/** `doctor --json`. */
export const DoctorOutput = z.object({
  ok: z.boolean().describe('true when no check found a problem'),
  root: z.string(),
  checks: z.array(DoctorCheck),
});

/** The zod form of every contract, keyed like {@link SCHEMAS}. */
export const OUTPUT_SCHEMAS = Object.freeze({
  index: IndexOutput,
  status: StatusOutput,
  search: SearchOutput,
  query: QueryOutput,
  modelFetch: ModelFetchOutput,
  modelList: ModelListOutput,
  watchEvent: WatchEventOutput,
  doctor: DoctorOutput,
  retrieveContext: RetrieveContextOutput,
  judgeContext: RetrieveContextOutput,
  judgeRequest: JudgeRequest,
  judgeResponse: JudgeResponse,
  searchCode: SearchOutput,
  indexStatus: IndexStatusOutput,
  reindex: UpdateReportOutput,
});

/** Name of a published schema: a CLI output (`index`, `status`, ...) or an MCP tool result (`retrieveContext`, ...). */
export type SchemaName = keyof typeof OUTPUT_SCHEMAS;

const TITLES: Record<SchemaName, string> = {
  index: 'codescout index --json',
  status: 'codescout status --json',
  search: 'codescout search --json',
  query: 'codescout query --json',
  modelFetch: 'codescout model fetch --json',
  modelList: 'codescout model list --json',
  watchEvent: 'codescout watch --json (one line)',
  doctor: 'codescout doctor --json',
  retrieveContext: 'MCP tool retrieve_context (structuredContent)',
  judgeContext: 'MCP tool judge_context (structuredContent)',
  judgeRequest: 'codescout query --judge-cmd: the document on the command\'s stdin',
  judgeResponse: 'codescout query --judge-cmd: the document the command prints',
  searchCode: 'MCP tool search_code (structuredContent)',
  indexStatus: 'MCP tool index_status (structuredContent)',
  reindex: 'MCP tool reindex (structuredContent)',
};

/**
 * JSON Schemas (draft-07) of every `--json` output and MCP tool result, keyed by name.
 * @example
 * import Ajv from 'ajv';
 * const valid = new Ajv().compile(SCHEMAS.search)(JSON.parse(stdout));
 */
export const SCHEMAS: Readonly<Record<SchemaName, Readonly<Record<string, unknown>>>> = Object.freeze(
  Object.fromEntries((Object.keys(OUTPUT_SCHEMAS) as SchemaName[]).map((name) => [name, jsonSchemaOf(name)])) as Record<SchemaName, Record<string, unknown>>,
);

/** The plain JSON Schema of one contract (the non-enumerable `~standard` handle of zod's result is left behind). */
function jsonSchemaOf(name: SchemaName): Readonly<Record<string, unknown>> {
  const schema: Record<string, unknown> = { ...z.toJSONSchema(OUTPUT_SCHEMAS[name], { target: 'draft-7' }) };
  return Object.freeze({ ...schema, title: TITLES[name] });
}
