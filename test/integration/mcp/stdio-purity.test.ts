import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, cliEnv, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

describe('codescout mcp over raw stdio', () => {
  it('writes nothing but JSON-RPC to stdout, through model load and the first build, and exits 0 when stdin closes', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const child = spawn(process.execPath, [CLI, 'mcp', tree.root, '--cache-dir', tree.cacheDir], { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const send = (m: object): boolean => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'invoice total with tax', k: 1 } } });
    await waitForOutput(child, 'stdout', /"id":2/);
    child.stdin.end();
    expect((await waitForExit(child)).code).toBe(0);

    const messages = stdout.trim().split('\n').map((l) => JSON.parse(l) as { jsonrpc: string; id?: number; result?: { structuredContent?: unknown } });
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    const reply = messages.find((m) => m.id === 2)!;
    expect(reply.result?.structuredContent).toMatchObject({ hits: [{ path: 'src/billing/invoice.ts', symbol: 'invoiceTotal' }] });
    expect(messages.map((m) => m.id).filter((id) => id !== undefined)).toEqual([1, 2]);
  });
});
