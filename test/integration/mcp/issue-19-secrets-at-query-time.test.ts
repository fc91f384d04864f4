import { afterEach, describe, expect, it } from 'vitest';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { secretFixtures } from '../../helpers/secret-fixtures.js';
import { startMcp, structured, type McpChild } from './mcp-client.js';

// Issue 19, finding 6: retrieve_context returns chunk text read from the disk at query time. A file that gained a
// secret since it was indexed (no watcher, or one that has not caught up) must not hand that secret out.

const trees: TempTree[] = [];
const servers: McpChild[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const t of trees.splice(0)) await t.dispose();
});

type Context = { results: Array<{ path: string; chunks: Array<{ symbol: string; text?: string }> }>; related: Context['results'] };

describe('issue 19: secrets at query time (child process, real model)', () => {
  it('a result file that now holds a secret comes back without code', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const mcp = await startMcp(tree, ['--no-watch']);
    servers.push(mcp);
    const ask = async (): Promise<string | undefined> => {
      const r = structured<Context>(await mcp.call('retrieve_context', { text: 'sum the invoice lines and add tax', maxCycles: 1 }));
      const file = [...r.results, ...r.related].find((f) => f.path === 'src/billing/invoice.ts')!;
      return file.chunks.find((c) => c.symbol === 'invoiceTotal')!.text;
    };
    expect(await ask()).toContain('export function invoiceTotal(lines: InvoiceLine[], taxRate: number): number {');
    const stripe = secretFixtures().find((f) => f.path === 'deploy/billing.yaml')!.content.split('key: ')[1]!.trim();
    await tree.write('src/billing/invoice.ts', `${SMALL_REPO['src/billing/invoice.ts']}// billing key: ${stripe}\n`);
    expect(await ask()).toBeUndefined();
  });
});
