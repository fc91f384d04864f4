import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndex, SCHEMAS, startRetrieval } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema, errorText, startMcp, type McpChild } from '../mcp/mcp-client.js';
// @ts-expect-error: a plain ES module, also run as the judge command
import { judge } from '../../fixtures/judges/scripted-judge.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.resolve(HERE, '../../fixtures/retrieval-repo');
const JUDGE = path.resolve(HERE, '../../fixtures/judges/scripted-judge.mjs');
const TASK = 'add rate limiting to the API endpoints';
type Verdict = { path: string; relevance: number };
const scripted = judge as (r: { candidates: ReadonlyArray<{ path: string }> }) => { evaluations: Verdict[] };
type Pack = { status: string; results: Verdict[]; related: Verdict[]; sessionId?: string; cycle?: number; candidates?: Array<{ path: string; chunks: Array<{ text?: string }> }> };
const files = (r: { results: Verdict[]; related: Verdict[] }): Array<[string, number]> => [...r.results, ...r.related].map((f) => [f.path, f.relevance]);

let tree: TempTree;
let expected: Array<[string, number]>;

beforeAll(async () => {
  tree = await createTempTree({}, FIXTURE);
  const built = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--json']);
  expect(built.code).toBe(0);
  // What the library session gives with the scripted judge: every other path must give the same files.
  const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
  try {
    const session = await startRetrieval(index, { text: TASK });
    while (!session.isDone) await session.judge(scripted({ candidates: session.candidates() }).evaluations);
    expected = files((await session.result()));
  } finally {
    await index.close();
  }
  expect(expected.slice(0, 3).map(([p]) => p)).toEqual(['src/http/middleware/throttle.ts', 'src/util/token-bucket.ts', 'src/http/pipeline.ts']);
});
afterAll(async () => tree.dispose());

describe('the agent judges over MCP (real stdio child process)', () => {
  let mcp: McpChild;
  beforeAll(async () => {
    mcp = await startMcp(tree, ['--no-watch']);
  });
  afterAll(async () => mcp.close());

  it('retrieve_context with judge "agent", then judge_context each cycle, gives the same files as the library', async () => {
    const first = await mcp.call('retrieve_context', { text: TASK, judge: 'agent' });
    expect(first.isError).toBeUndefined();
    assertMatchesSchema('retrieveContext', first.structuredContent);
    let step = first.structuredContent as Pack;
    expect(step).toMatchObject({ status: 'judge', cycle: 1, maxCycles: 3 });
    // The text block is for reading: the candidates with their code, not escaped JSON.
    expect(errorText(first)).toContain('## src/http/middleware/throttle.ts');
    expect(errorText(first)).toContain(`judge_context({ sessionId: "${step.sessionId}"`);
    const sessionId = step.sessionId!;
    let calls = 0;
    let text = '';
    while (step.status === 'judge') {
      const next = await mcp.call('judge_context', { sessionId, evaluations: scripted({ candidates: step.candidates! }).evaluations, trace: true });
      expect(next.isError).toBeUndefined();
      assertMatchesSchema('judgeContext', next.structuredContent);
      step = next.structuredContent as Pack;
      text = errorText(next);
      calls++;
    }
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(files(step)).toEqual(expected);
    // Issue 15: the answer reads as Markdown (a heading per file), with the trace because it was asked for.
    for (const f of [...step.results, ...step.related]) expect(text).toContain(`\n## ${f.path}  (${f.relevance.toFixed(2)}, `);
    expect(text).toContain('\n\n# Cycles\n1. ');
    // A finished session is gone, and says so.
    const late = await mcp.call('judge_context', { sessionId, evaluations: [] });
    expect(late.isError).toBe(true);
    expect(errorText(late)).toContain(`Retrieval session ${sessionId} has finished and returned its answer`);
  });

  it('an unknown session and a judgement of a path that is not a candidate are clear tool errors', async () => {
    const unknown = await mcp.call('judge_context', { sessionId: 'no-such-session', evaluations: [] });
    expect(unknown.isError).toBe(true);
    expect(errorText(unknown)).toContain('Unknown retrieval session "no-such-session"');
    const first = (await mcp.call('retrieve_context', { text: TASK, judge: 'agent', tokenBudget: 0 })).structuredContent as Pack;
    expect(first.candidates!.every((c) => c.chunks.every((k) => k.text === undefined))).toBe(true);
    const bad = await mcp.call('judge_context', { sessionId: first.sessionId, evaluations: [{ path: 'src/nowhere.ts', relevance: 0.9 }] });
    expect(bad.isError).toBe(true);
    expect(errorText(bad)).toContain('"src/nowhere.ts" is not a candidate of cycle 1');
    // The refused call left the session usable.
    const ok = await mcp.call('judge_context', { sessionId: first.sessionId, evaluations: [] });
    expect(ok.isError).toBeUndefined();
  });
});

describe('codescout query --judge-cmd (real child processes)', () => {
  const query = (extra: string[]) => runCli(['query', TASK, '--root', tree.root, '--cache-dir', tree.cacheDir, ...extra]);

  it('a judge command gives the same files as the library, and reads a request that matches its schema', async () => {
    const run = await query(['--judge-cmd', `node ${JSON.stringify(JUDGE)}`, '--json']);
    expect(run.stderr).toContain('judge: cycle 1');
    expect(run.code).toBe(0);
    expect(files(JSON.parse(run.stdout))).toEqual(expected);

    const saved = path.join(tree.cacheDir, 'request.json');
    const copy = await query(['--judge-cmd', `cat > ${JSON.stringify(saved)}; echo '{"evaluations": []}'`, '--max-cycles', '1', '--json']);
    expect(copy.code).toBe(0);
    const request = JSON.parse(await readFile(saved, 'utf8'));
    const ajv = new Ajv({ strict: true, allErrors: true });
    expect(ajv.validate(SCHEMAS.judgeRequest, request), ajv.errorsText(ajv.errors)).toBe(true);
    expect(request).toMatchObject({ task: { text: TASK }, cycle: 1, maxCycles: 1 });
    expect(ajv.validate(SCHEMAS.judgeResponse, scripted(request)), ajv.errorsText(ajv.errors)).toBe(true);
  });

  it.each([
    ['fails', 'echo "no model configured" >&2; exit 3', ['The judge command exited with code 3: no model configured.']],
    ['prints no JSON', 'echo nope', ['The judge command printed no JSON in cycle 1 (it began: "nope")']],
    ['prints the wrong shape', `echo '{"evaluations": [{"path": "a.ts"}]}'`, ["is not a judge response: evaluations.0.relevance"]],
    ['judges a path that is not a candidate', `echo '{"evaluations": [{"path": "nowhere.ts", "relevance": 1}]}'`, ['was refused: "nowhere.ts" is not a candidate of cycle 1']],
  ])('a judge command that %s stops with exit 7 and one line', async (_what, command, messages) => {
    const run = await query(['--judge-cmd', command]);
    expect(run.code).toBe(7);
    for (const m of messages) expect(run.stderr).toContain(m);
    expect(run.stderr.trim().split('\n').filter((l) => l.startsWith('codescout:'))).toHaveLength(1);
    expect(run.stdout).toBe('');
  });

  it('a judge command that takes too long is stopped, with its whole process group', async () => {
    const started = Date.now();
    const run = await query(['--judge-cmd', 'sleep 30 | cat', '--judge-timeout', '1']);
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('The judge command took longer than 1 s and was stopped.');
    expect(Date.now() - started).toBeLessThan(25_000);
  });
});
