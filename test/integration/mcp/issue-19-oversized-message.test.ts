import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { startMcp, structured, type McpChild } from './mcp-client.js';

// Issue 19, finding 8: one MCP message over 10 MiB stopped the server with exit 0 (the SDK's stdio buffer closed the
// transport). It is refused with a JSON-RPC error for its id, and the next call is served.

const trees: TempTree[] = [];
const servers: McpChild[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const t of trees.splice(0)) await t.dispose();
});

describe('issue 19: an oversized MCP message (child process, real model)', () => {
  it('a 20 MB call gets an Invalid Request error, and a normal call after it still works', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const mcp = await startMcp(tree, ['--no-watch']);
    servers.push(mcp);

    const huge = 'x'.repeat(20 * 1024 * 1024);
    let refused: unknown;
    try {
      await mcp.call('search_code', { query: huge });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32600);
    expect((refused as McpError).message).toMatch(/The request is 2097\d{4} bytes; the limit is 10485760 bytes\. Send less/);
    expect(mcp.stderr()).toMatch(/refused an MCP message of 2097\d{4} bytes \(the limit is 10485760\); the server keeps running/);

    const after = await mcp.call('search_code', { query: 'invoice total with tax', k: 1 });
    expect(after.isError).toBeUndefined();
    expect(structured<{ hits: Array<{ path: string; symbol: string }> }>(after).hits.map((h) => [h.path, h.symbol])).toEqual([['src/billing/invoice.ts', 'invoiceTotal']]);
  });
});
