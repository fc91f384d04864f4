import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TempTree } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema, errorText, servedFixture, structured, type McpChild } from './mcp-client.js';

// Issue 15: the text block an agent reads is Markdown bounded by tokenBudget (it was the whole structured result as
// one escaped JSON string, trace included: 2,899 characters at a budget of 150 tokens), and search_code returns code.

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/retrieval-repo');
const TASK = 'add rate limiting to the API endpoints';

/** Approximate tokens of a text as codescout counts them for tokenBudget (characters / 4). */
const tokensOf = (text: string): number => Math.ceil(text.length / 4);
const LEFT_OUT = /^Left out to fit tokenBudget \d+: [^\n]+; a larger tokenBudget shows more[^\n]*\.$/;

type Chunk = { symbol: string; kind: string; parent: string | null; startLine: number; endLine: number; text?: string; textTruncated?: true };
type File = { path: string; relevance: number; role: string; reason: string; chunks: Chunk[] };
type Pack = { status: string; results: File[]; related: File[]; cycles: Array<{ n: number }>; tokenBudget: number; tokensUsed: number };
type Candidate = { path: string; hint: { relevance: number; reason: string }; chunks: Chunk[] };
type JudgeStep = { status: string; sessionId: string; candidates: Candidate[] };
type SearchHit = { path: string; startLine: number; endLine: number; symbol: string; similarity?: number; text?: string; textTruncated?: true };

let served: Awaited<ReturnType<typeof servedFixture>>;
let tree: TempTree;
let mcp: McpChild;
beforeAll(async () => {
  served = await servedFixture(FIXTURE);
  ({ tree, mcp } = served);
});
afterAll(() => served.dispose());

describe('issue 15: MCP text content for agents (real stdio child process)', () => {
  it.each([150, 1000, 4000])('retrieve_context at tokenBudget %i: the whole Markdown text fits the budget, best file first, no trace', async (budget) => {
    const reply = await mcp.call('retrieve_context', { text: TASK, tokenBudget: budget });
    assertMatchesSchema('retrieveContext', reply.structuredContent);
    const pack = structured<Pack>(reply);
    const text = errorText(reply);
    expect(tokensOf(text)).toBeLessThanOrEqual(budget);
    const files = [...pack.results, ...pack.related];
    const found = pack.results.length === 0 ? 'No file reached the high-relevance band \\(0\\.7\\)' : `${pack.results.length} files? with relevance >= 0\\.7`;
    expect(text.split('\n')[0]).toMatch(new RegExp(`^${found}, ${pack.related.length} related \\(0\\.4-0\\.7\\); stopped \\(\\w[\\w-]*\\) after \\d cycles?\\.$`));
    // The files shown are the best ones, in order; the line at the end counts the ones left out.
    const shown = [...text.matchAll(/^## (\S+)  \((\d\.\d\d), (\w+)/gm)].map((m) => m[1]);
    expect(shown).toEqual(files.slice(0, shown.length).map((f) => f.path));
    const best = files[0]!;
    expect(text).toContain(`\n## ${best.path}  (${best.relevance.toFixed(2)}, ${best.role}`);
    const bestCode = best.chunks.find((c) => c.text !== undefined)!;
    expect(text).toContain(`- ${bestCode.startLine}-${bestCode.endLine} ${bestCode.kind} ${bestCode.parent ? `${bestCode.parent}.` : ''}${bestCode.symbol}`);
    expect(text).toContain(`\`\`\`ts\n${bestCode.text!.split('\n')[0]}\n`);
    const last = text.split('\n').at(-1)!;
    if (shown.length < files.length) expect(last).toMatch(new RegExp(`^Left out to fit tokenBudget ${budget}: ${files.length - shown.length} of ${files.length} files`));
    if (last.startsWith('Left out')) expect(last).toMatch(LEFT_OUT);
    expect(text).not.toContain('# Cycles');
    expect(() => JSON.parse(text)).toThrow();
  });

  it.each([150, 1000, 4000])('agent judge at tokenBudget %i: the candidates text and the final answer fit the budget, best candidate named', async (budget) => {
    const first = await mcp.call('retrieve_context', { text: TASK, judge: 'agent', maxCycles: 1, tokenBudget: budget });
    const step = structured<JudgeStep>(first);
    expect(step.status).toBe('judge');
    const text = errorText(first);
    expect(tokensOf(text)).toBeLessThanOrEqual(budget);
    expect(text).toContain(`judge_context({ sessionId: "${step.sessionId}"`);
    const best = step.candidates[0]!;
    expect(text).toContain(`\n\n## ${best.path}  (hint ${best.hint.relevance.toFixed(2)}`);
    const shown = [...text.matchAll(/^## (\S+)  \(hint /gm)].map((m) => m[1]);
    expect(shown).toEqual(step.candidates.slice(0, shown.length).map((c) => c.path));
    if (shown.length < step.candidates.length) expect(text.split('\n').at(-1)).toMatch(LEFT_OUT);

    const evaluations = step.candidates.map((c, i) => ({ path: c.path, relevance: i === 0 ? 0.9 : 0.5, reason: `judged ${i}` }));
    const done = await mcp.call('judge_context', { sessionId: step.sessionId, evaluations, trace: true });
    const pack = structured<Pack>(done);
    expect(pack.status).toBe('done');
    const answer = errorText(done);
    expect(tokensOf(answer)).toBeLessThanOrEqual(budget);
    expect(answer).toContain(`\n## ${best.path}  (0.90, `);
    if (budget >= 1000) expect(answer).toContain('\n\n# Cycles\n1. ');
  });

  it('retrieve_context shows the cycle trace when asked, within the budget; the structured content is the same either way', async () => {
    const plain = await mcp.call('retrieve_context', { text: TASK, maxCycles: 2, tokenBudget: 1000 });
    const traced = await mcp.call('retrieve_context', { text: TASK, maxCycles: 2, tokenBudget: 1000, trace: true });
    const cycles = structured<Pack>(traced).cycles;
    expect(errorText(traced)).toContain(`\n\n# Cycles\n1. ${TASK}: `);
    expect(errorText(traced).match(/^\d\. /gm)).toHaveLength(cycles.length);
    expect(errorText(plain)).not.toContain('# Cycles');
    expect(tokensOf(errorText(traced))).toBeLessThanOrEqual(1000);
    const strip = (p: Pack): unknown => ({ ...p, cycles: p.cycles.map((c) => ({ ...c, ms: 0 })) });
    expect(strip(structured<Pack>(traced))).toEqual(strip(structured<Pack>(plain)));
  });

  it('search_code returns the code of the best hits within tokenBudget, as Markdown', async () => {
    const reply = await mcp.call('search_code', { query: 'token bucket refill', k: 5 });
    assertMatchesSchema('searchCode', reply.structuredContent);
    const out = structured<{ hits: SearchHit[]; tokenBudget: number; tokensUsed: number; truncated: boolean }>(reply);
    expect(out.tokenBudget).toBe(1500);
    expect(out.hits[0]!.path).toBe('src/util/token-bucket.ts');
    expect(out.hits[0]!.text).toContain('refill');
    expect(out.hits.every((h) => typeof h.similarity === 'number' && h.similarity > 0 && h.similarity < 1)).toBe(true);
    expect(out.tokensUsed).toBe(out.hits.reduce((n, h) => n + Math.ceil((h.text?.length ?? 0) / 4), 0));
    const text = errorText(reply);
    expect(text.split('\n')[0]).toBe('5 hits, best first.');
    expect(tokensOf(text)).toBeLessThanOrEqual(1500);
    const first = out.hits[0]!;
    expect(text).toContain(`\n## ${first.path}:${first.startLine}-${first.endLine} `);
    expect(text).toContain(`(similarity ${first.similarity!.toFixed(2)})\n\`\`\`ts\n${first.text}\n\`\`\``);

    const small = structured<{ hits: SearchHit[]; tokensUsed: number; truncated: boolean }>(await mcp.call('search_code', { query: 'token bucket refill', k: 5, tokenBudget: 80 }));
    expect(small.tokensUsed).toBeLessThanOrEqual(80);
    expect(small.truncated).toBe(true);
    expect(small.hits.map((h) => h.path)).toEqual(out.hits.map((h) => h.path));
    expect(small.hits[0]!.text).toBeDefined();
    const none = structured<{ hits: SearchHit[]; tokensUsed: number }>(await mcp.call('search_code', { query: 'token bucket refill', k: 5, tokenBudget: 0 }));
    expect(none.hits.filter((h) => h.text !== undefined)).toEqual([]);
    expect(none.tokensUsed).toBe(0);
  });

  it.each([150, 1000, 4000])('search_code at tokenBudget %i: the whole text fits, the best hit named with its code', async (budget) => {
    const reply = await mcp.call('search_code', { query: 'token bucket refill', k: 20, tokenBudget: budget });
    const out = structured<{ hits: SearchHit[] }>(reply);
    const text = errorText(reply);
    expect(tokensOf(text)).toBeLessThanOrEqual(budget);
    const first = out.hits[0]!;
    expect(text).toContain(`\n\n## ${first.path}:${first.startLine}-${first.endLine} `);
    expect(text).toContain(`\`\`\`ts\n${first.text!.split('\n')[0]}\n`);
    const shown = [...text.matchAll(/^## (\S+):(\d+)-/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(shown).toEqual(out.hits.slice(0, shown.length).map((h) => `${h.path}:${h.startLine}`));
    if (shown.length < out.hits.length) expect(text.split('\n').at(-1)).toMatch(new RegExp(`^Left out to fit tokenBudget ${budget}: ${out.hits.length - shown.length} of ${out.hits.length} hits`));
  });
});
