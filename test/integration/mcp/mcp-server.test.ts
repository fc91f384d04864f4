import { afterEach, describe, expect, it } from 'vitest';
import { openIndex, TOOL_NAMES } from '../../../src/index.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema, errorText, startMcp, structured, until, type McpChild } from './mcp-client.js';

const trees: TempTree[] = [];
const servers: McpChild[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const t of trees.splice(0)) await t.dispose();
});

async function serve(extra: readonly string[] = []): Promise<{ tree: TempTree; mcp: McpChild }> {
  const tree = await createTempTree(SMALL_REPO);
  trees.push(tree);
  const mcp = await startMcp(tree, extra);
  servers.push(mcp);
  return { tree, mcp };
}

const SMALL_REPO_FILES = Object.keys(SMALL_REPO).length;

describe('codescout mcp (child process, real model)', () => {
  it('lists exactly the five tools, each with input and output schemas', async () => {
    const { mcp } = await serve();
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['retrieve_context', 'judge_context', 'search_code', 'index_status', 'reindex']);
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
    }
    expect(tools.find((t) => t.name === 'retrieve_context')!.inputSchema.required).toEqual(['text']);
    expect(tools.find((t) => t.name === 'search_code')!.inputSchema.required).toEqual(['query']);
    expect(tools.find((t) => t.name === 'judge_context')!.inputSchema.required).toEqual(['sessionId', 'evaluations']);
  });

  it('builds the empty index on first use with progress notifications, and every tool result matches its schema', async () => {
    const { mcp } = await serve();
    const before = await mcp.call('index_status');
    assertMatchesSchema('indexStatus', before.structuredContent);
    expect(before.structuredContent).toMatchObject({ files: 0, chunks: 0, watching: false, model: null });

    const progress: Array<{ progress: number; total?: number }> = [];
    const ctx = await mcp.call('retrieve_context', { text: 'where are requests from a client throttled', keywords: ['throttle'], maxCycles: 2 }, (p) => progress.push(p));
    expect(ctx.isError).toBeUndefined();
    assertMatchesSchema('retrieveContext', ctx.structuredContent);
    expect(progress.at(-1)).toMatchObject({ progress: SMALL_REPO_FILES, total: SMALL_REPO_FILES });
    const r = ctx.structuredContent as { results: Array<{ path: string; chunks: Array<{ symbol: string; text?: string }> }>; related: typeof r.results; tokenBudget: number; tokensUsed: number; truncated: boolean };
    const files = [...r.results, ...r.related];
    expect(files[0]!.path).toBe('src/net/throttle.ts');
    const throttle = files[0]!.chunks.find((c) => c.symbol === 'throttleRequests')!;
    expect(throttle.text).toContain('export function throttleRequests(options: ThrottleOptions) {');
    expect(r.tokenBudget).toBe(4000);
    expect(r.truncated).toBe(false);
    const codeChars = files.flatMap((f) => f.chunks).reduce((n, c) => n + Math.ceil((c.text?.length ?? 0) / 4), 0);
    expect(r.tokensUsed).toBe(codeChars);
    // The text block is Markdown for an agent to read (issue 15): the files with their code, no trace unless asked.
    const text = errorText(ctx);
    expect(text).toContain('\n## src/net/throttle.ts  (');
    expect(text).toContain(`\`\`\`ts\n${throttle.text}\n\`\`\``);
    expect(text).not.toContain('# Cycles');
    expect(() => JSON.parse(text)).toThrow();

    const search = await mcp.call('search_code', { query: 'hash a password with a salt', k: 3, mode: 'hybrid', include: ['src/**'] });
    assertMatchesSchema('searchCode', search.structuredContent);
    const hits = (search.structuredContent as { hits: Array<{ path: string; symbol: string; text?: string }> }).hits;
    expect(hits).toHaveLength(3);
    expect(hits[0]).toMatchObject({ path: 'src/users/password.ts', symbol: 'hashPassword' });
    expect(hits[0]!.text).toContain('export function hashPassword(');
    expect(errorText(search)).toContain(`\`\`\`ts\n${hits[0]!.text}\n\`\`\``);

    const status = await mcp.call('index_status');
    assertMatchesSchema('indexStatus', status.structuredContent);
    expect(status.structuredContent).toMatchObject({ files: SMALL_REPO_FILES, model: 'all-MiniLM-L6-v2', dimension: 384 });

    const reindex = await mcp.call('reindex');
    assertMatchesSchema('reindex', reindex.structuredContent);
    expect(reindex.structuredContent).toMatchObject({ files: SMALL_REPO_FILES, filesChanged: 0, embedded: 0, removed: 0, skipped: [] });
  });

  it('a small token budget returns the best chunk code first and reports truncation', async () => {
    const { mcp } = await serve();
    const full = structured<BudgetView>(await mcp.call('retrieve_context', { text: 'where are requests from a client throttled', maxCycles: 1 }));
    const small = structured<BudgetView>(await mcp.call('retrieve_context', { text: 'where are requests from a client throttled', maxCycles: 1, tokenBudget: 80 }));
    assertMatchesSchema('retrieveContext', small);
    expect(small.truncated).toBe(true);
    expect(small.tokensUsed).toBeLessThanOrEqual(80);
    const withCode = [...small.results, ...small.related].flatMap((f) => f.chunks.filter((c) => c.text !== undefined).map((c) => `${f.path}:${c.startLine}`));
    const best = [...full.results, ...full.related][0]!;
    expect(withCode[0]).toBe(`${best.path}:${best.chunks[0]!.startLine}`);
    const none = structured<BudgetView>(await mcp.call('retrieve_context', { text: 'where are requests from a client throttled', maxCycles: 1, tokenBudget: 0 }));
    expect([...none.results, ...none.related].flatMap((f) => f.chunks).filter((c) => c.text !== undefined)).toEqual([]);
    expect(none.tokensUsed).toBe(0);
  });

  it('bad arguments give error results with a clear message, and the server keeps answering', async () => {
    const { mcp, tree } = await serve();
    const missingText = await mcp.call('retrieve_context', { keywords: ['x'] });
    expect(missingText.isError).toBe(true);
    expect(errorText(missingText)).toMatch(/retrieve_context.*expected string, received undefined at text/);

    const negativeK = await mcp.call('search_code', { query: 'throttle', k: -1 });
    expect(negativeK.isError).toBe(true);
    expect(errorText(negativeK)).toMatch(/search_code.*>=1 at k/);

    const blank = await mcp.call('retrieve_context', { text: '   ' });
    expect(blank.isError).toBe(true);
    expect(errorText(blank)).toMatch(/^The task text is empty\./);

    const outside = await mcp.call('reindex', { paths: ['../outside.ts'] });
    expect(outside.isError).toBe(true);
    expect(errorText(outside)).toBe(`paths: "../outside.ts" is outside the indexed root ${tree.root}. Give a path relative to the root, e.g. "src/app.ts".`);

    const absolute = await mcp.call('reindex', { paths: ['/etc/passwd'] });
    expect(errorText(absolute)).toMatch(/^paths: "\/etc\/passwd" is outside the indexed root/);

    const globOut = await mcp.call('search_code', { query: 'throttle', include: ['../**'] });
    expect(globOut.isError).toBe(true);
    expect(errorText(globOut)).toMatch(/^include: the glob "\.\.\/\*\*" points outside the indexed root/);

    const badGlob = await mcp.call('search_code', { query: 'throttle', include: ['src/[net'] });
    expect(errorText(badGlob)).toMatch(/^The include glob "src\/\[net" is malformed/);

    const unknown = await mcp.client.callTool({ name: 'drop_index', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(errorText(unknown as never)).toMatch(/Tool drop_index not found/);

    const after = await mcp.call('search_code', { query: 'invoice total with tax', k: 1 });
    expect(after.isError).toBeUndefined();
    expect(after.structuredContent).toMatchObject({ hits: [{ path: 'src/billing/invoice.ts', symbol: 'invoiceTotal' }] });
  });

  it('serves concurrent calls, the first ones sharing one build of the empty index', async () => {
    const { mcp } = await serve();
    const results = await Promise.all([
      mcp.call('retrieve_context', { text: 'parse an ISO date string', maxCycles: 1 }),
      mcp.call('search_code', { query: 'token bucket refill', k: 2 }),
      mcp.call('search_code', { query: 'verify a stored password hash', k: 2, mode: 'lexical' }),
      mcp.call('reindex', { paths: ['src/util/dates.ts'] }),
    ]);
    expect(results.map((r) => r.isError ?? false)).toEqual([false, false, false, false]);
    assertMatchesSchema('retrieveContext', results[0]!.structuredContent);
    assertMatchesSchema('searchCode', results[1]!.structuredContent);
    assertMatchesSchema('searchCode', results[2]!.structuredContent);
    assertMatchesSchema('reindex', results[3]!.structuredContent);
    expect((results[1]!.structuredContent as { hits: Array<{ path: string }> }).hits[0]!.path).toBe('src/util/token-bucket.ts');
    expect((results[2]!.structuredContent as { hits: Array<{ symbol: string }> }).hits[0]!.symbol).toBe('verifyPassword');
    expect(mcp.stderr().match(/is empty; building it now/g)).toHaveLength(1);
    const status = await mcp.call('index_status');
    expect(status.structuredContent).toMatchObject({ files: SMALL_REPO_FILES });
  });

  it('notices a file edited during the session (watcher), then exits cleanly when the client closes', async () => {
    const { mcp, tree } = await serve();
    await mcp.call('search_code', { query: 'warm up', k: 1 }); // first use: builds the index and starts the watcher
    await until(async () => (await mcp.call('index_status')).structuredContent?.watching === true, { timeoutMs: 30_000, what: 'the watcher' });
    await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
    const found = async (): Promise<boolean> => {
      const r = await mcp.call('search_code', { query: 'compass bearing in degrees between two headings', k: 3 });
      return (r.structuredContent as { hits: Array<{ symbol: string }> }).hits.some((h) => h.symbol === 'bearingDegrees');
    };
    await until(found, { timeoutMs: 30_000, what: 'bearingDegrees in search_code results' });
    servers.splice(servers.indexOf(mcp), 1);
    await mcp.close();
    expect(mcp.stderr()).toContain('codescout: MCP server stopped; index saved.');
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    expect((await index.verify())).toEqual([]);
    expect((await index.stats()).files).toBe(SMALL_REPO_FILES + 1);
    await index.close();
  });

  it('with --no-watch, reindex of chosen paths adds and removes files', async () => {
    const { mcp, tree } = await serve(['--no-watch']);
    await mcp.call('search_code', { query: 'warm up', k: 1 });
    expect((await mcp.call('index_status')).structuredContent).toMatchObject({ watching: false, files: SMALL_REPO_FILES });

    await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
    await tree.write('src/blob.bin', '\u0000\u0001binary');
    const added = await mcp.call('reindex', { paths: ['src/geo/compass.ts', `${tree.root}/src/util/dates.ts`, 'src/blob.bin'] });
    assertMatchesSchema('reindex', added.structuredContent);
    expect(added.structuredContent).toMatchObject({ files: SMALL_REPO_FILES + 1, filesChanged: 1, embedded: 1, removed: 0, skipped: [{ path: 'src/blob.bin', reason: 'unsupported file type (.bin)' }] });
    const hit = await mcp.call('search_code', { query: 'compass bearing degrees', k: 1 });
    expect(hit.structuredContent).toMatchObject({ hits: [{ path: 'src/geo/compass.ts', symbol: 'bearingDegrees' }] });

    await tree.remove('src/geo');
    const removed = await mcp.call('reindex', { paths: ['src/geo'] });
    expect(removed.structuredContent).toMatchObject({ files: SMALL_REPO_FILES, removed: 1, filesChanged: 0 });
  });
});

interface BudgetView {
  results: Array<{ path: string; chunks: Array<{ startLine: number; text?: string }> }>;
  related: Array<{ path: string; chunks: Array<{ startLine: number; text?: string }> }>;
  tokensUsed: number;
  truncated: boolean;
}
