import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import type { TempTree } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema, errorText, servedFixture, structured, type McpChild } from './mcp-client.js';

// minHigh (stop early once this many files score >= 0.7) reaches the loop from MCP and the CLI: an agent that
// judges may raise it to let later cycles keep looking (bench/RESULTS.md, ninth session).

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/retrieval-repo');
const TASK = 'hash a password and check it against the stored hash';

type Pack = { status: string; results: Array<{ path: string }>; cycles: Array<{ n: number }>; stoppedBecause: string };

let served: Awaited<ReturnType<typeof servedFixture>>;
let tree: TempTree;
let mcp: McpChild;
beforeAll(async () => {
  served = await servedFixture(FIXTURE);
  ({ tree, mcp } = served);
});
afterAll(() => served.dispose());

describe('minHigh from MCP and the CLI (real stdio child process, real CLI)', () => {
  it('retrieve_context: minHigh 1 stops after the first cycle with a high file; a large minHigh keeps looking', async () => {
    const early = await mcp.call('retrieve_context', { text: TASK, minHigh: 1 });
    assertMatchesSchema('retrieveContext', early.structuredContent);
    const pack = structured<Pack>(early);
    expect(pack.stoppedBecause).toBe('enough');
    expect(pack.cycles).toHaveLength(1);
    expect(pack.results[0]!.path).toBe('src/auth/password.ts');
    const late = structured<Pack>(await mcp.call('retrieve_context', { text: TASK, minHigh: 50 }));
    expect(late.stoppedBecause).not.toBe('enough');
    expect(late.cycles.length).toBeGreaterThan(1);
  });

  it('retrieve_context refuses a minHigh outside 1..50 and names it', async () => {
    const bad = await mcp.call('retrieve_context', { text: TASK, minHigh: 51 });
    expect(bad.isError).toBe(true);
    expect(errorText(bad)).toMatch(/minHigh/);
  });

  it('query --min-high gives the same stop as the library, and a bad value is a one-line error naming the option', async () => {
    const args = ['query', TASK, '--root', tree.root, '--cache-dir', tree.cacheDir, '--json', '--no-server'];
    const early = await runCli([...args, '--min-high', '1']);
    expect(early.code).toBe(0);
    const result = JSON.parse(early.stdout) as Pack;
    expect(result.stoppedBecause).toBe('enough');
    expect(result.cycles).toHaveLength(1);
    const late = JSON.parse((await runCli([...args, '--min-high', '50'])).stdout) as Pack;
    expect(late.stoppedBecause).not.toBe('enough');
    const bad = await runCli([...args, '--min-high', '0']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('--min-high must be a whole number from 1 to 50; got "0".');
  });
});
