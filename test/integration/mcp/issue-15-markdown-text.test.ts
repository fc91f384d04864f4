import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema, errorText, startMcp, structured, type McpChild } from './mcp-client.js';

// Issue 15: the text block an agent reads is Markdown bounded by tokenBudget (it was the whole structured result as
// one escaped JSON string, trace included: 2,899 characters at a budget of 150 tokens), and search_code returns code.

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/retrieval-repo');
const TASK = 'add rate limiting to the API endpoints';

/** What the text may add to the code: a summary line, and per file and per chunk shown with code, a bounded overhead. */
const SUMMARY_CHARS = 250;
const PER_FILE_CHARS = 700; // heading with a reason clipped to 200, missing context clipped to 200, 4 chunk lines without code
const PER_CODE_CHUNK_CHARS = 100; // chunk title line and the fences

type Chunk = { symbol: string; kind: string; parent: string | null; startLine: number; endLine: number; text?: string; textTruncated?: true };
type File = { path: string; relevance: number; role: string; reason: string; chunks: Chunk[] };
type Pack = { status: string; results: File[]; related: File[]; cycles: Array<{ n: number }>; tokenBudget: number; tokensUsed: number };
type SearchHit = { path: string; startLine: number; endLine: number; symbol: string; similarity?: number; text?: string; textTruncated?: true };

let tree: TempTree;
let mcp: McpChild;
beforeAll(async () => {
  tree = await createTempTree({}, FIXTURE);
  expect((await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--json'])).code).toBe(0);
  mcp = await startMcp(tree, ['--no-watch']);
});
afterAll(async () => {
  await mcp.close();
  await tree.dispose();
});

describe('issue 15: MCP text content for agents (real stdio child process)', () => {
  it.each([150, 1000, 4000])('retrieve_context at tokenBudget %i: Markdown files and code within the budget, no trace', async (budget) => {
    const reply = await mcp.call('retrieve_context', { text: TASK, tokenBudget: budget });
    assertMatchesSchema('retrieveContext', reply.structuredContent);
    const pack = structured<Pack>(reply);
    const text = errorText(reply);
    const files = [...pack.results, ...pack.related];
    const withCode = files.flatMap((f) => f.chunks.filter((c) => c.text !== undefined));
    const codeChars = withCode.reduce((n, c) => n + c.text!.length, 0);
    expect(codeChars).toBeLessThanOrEqual(budget * 4);
    expect(text.length - codeChars).toBeLessThanOrEqual(SUMMARY_CHARS + files.length * PER_FILE_CHARS + withCode.length * PER_CODE_CHUNK_CHARS);
    expect(text.length).toBeLessThan(JSON.stringify(pack).length);
    expect(text.split('\n')[0]).toMatch(new RegExp(`^\\d+ files? with relevance >= 0\\.7, ${pack.related.length} related \\(0\\.4-0\\.7\\); stopped \\(\\w[\\w-]*\\) after \\d cycles?\\. Code: ${pack.tokensUsed} of ${budget} tokens`));
    for (const f of files) {
      expect(text).toContain(`\n## ${f.path}  (${f.relevance.toFixed(2)}, ${f.role}: `);
      for (const c of f.chunks.filter((k) => k.text !== undefined)) {
        expect(text).toContain(`- ${c.startLine}-${c.endLine} ${c.kind} ${c.parent ? `${c.parent}.` : ''}${c.symbol}${c.textTruncated ? ' (first lines)' : ''}\n\`\`\`ts\n${c.text}\n\`\`\``);
      }
    }
    expect(text).not.toContain('# Cycles');
    expect(() => JSON.parse(text)).toThrow();
  });

  it('retrieve_context shows the cycle trace when asked; the structured content is the same either way', async () => {
    const plain = await mcp.call('retrieve_context', { text: TASK, maxCycles: 2, tokenBudget: 300 });
    const traced = await mcp.call('retrieve_context', { text: TASK, maxCycles: 2, tokenBudget: 300, trace: true });
    const cycles = structured<Pack>(traced).cycles;
    expect(errorText(traced)).toContain(`\n\n# Cycles\n1. ${TASK}: `);
    expect(errorText(traced).match(/^\d\. /gm)).toHaveLength(cycles.length);
    expect(errorText(traced).startsWith(errorText(plain))).toBe(true);
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
    const codeChars = out.hits.reduce((n, h) => n + (h.text?.length ?? 0), 0);
    expect(out.tokensUsed).toBe(out.hits.reduce((n, h) => n + Math.ceil((h.text?.length ?? 0) / 4), 0));
    const text = errorText(reply);
    expect(text.split('\n')[0]).toBe(`5 hits, best first. Code: ${out.tokensUsed} of 1500 tokens${out.truncated ? '; some hits were cut or left without code to fit (a larger tokenBudget shows more)' : ''}.`);
    const first = out.hits[0]!;
    expect(text).toContain(`\n## ${first.path}:${first.startLine}-${first.endLine} `);
    expect(text).toContain(`(similarity ${first.similarity!.toFixed(2)})\n\`\`\`ts\n${first.text}\n\`\`\``);
    expect(text.length - codeChars).toBeLessThanOrEqual(SUMMARY_CHARS + out.hits.length * PER_CODE_CHUNK_CHARS);

    const small = structured<{ hits: SearchHit[]; tokensUsed: number; truncated: boolean }>(await mcp.call('search_code', { query: 'token bucket refill', k: 5, tokenBudget: 80 }));
    expect(small.tokensUsed).toBeLessThanOrEqual(80);
    expect(small.truncated).toBe(true);
    expect(small.hits.map((h) => h.path)).toEqual(out.hits.map((h) => h.path));
    expect(small.hits[0]!.text).toBeDefined();
    const none = structured<{ hits: SearchHit[]; tokensUsed: number }>(await mcp.call('search_code', { query: 'token bucket refill', k: 5, tokenBudget: 0 }));
    expect(none.hits.filter((h) => h.text !== undefined)).toEqual([]);
    expect(none.tokensUsed).toBe(0);
  });
});
