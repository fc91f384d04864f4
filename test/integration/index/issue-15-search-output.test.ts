import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

// Issue 15, output for people: `codescout search` shows a similarity people can read (not the fusion score), a
// code line per hit (more with -C / --text), file paths only with -l, hides hits under --threshold, and shows the
// parts of one split symbol as one hit.

/** A function long enough to be split into several chunks (parts). */
const LEDGER = [
  '/** Reconciles the ledger of a warehouse against its stock counts. */',
  'export function reconcileLedger(entries: number[], counts: number[]): number {',
  '  let drift = 0;',
  ...Array.from({ length: 30 }, (_, i) => `  drift += Math.abs((entries[${i}] ?? 0) - (counts[${i}] ?? 0)); // warehouse shelf ${i}`),
  '  return drift;',
  '}',
  '',
].join('\n');

type JsonHit = { path: string; startLine: number; endLine: number; symbol: string; kind: string; score: number; similarity?: number; text?: string };

let tree: TempTree;
beforeAll(async () => {
  tree = await createTempTree({ ...SMALL_REPO, 'src/stock/ledger.ts': LEDGER });
  expect((await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--json'])).code).toBe(0);
});
afterAll(async () => tree.dispose());

const search = (text: string, extra: string[] = []) => runCli(['search', text, '--root', tree.root, '--cache-dir', tree.cacheDir, ...extra]);
async function json(text: string, extra: string[] = []): Promise<JsonHit[]> {
  const run = await search(text, [...extra, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { hits: JsonHit[] }).hits;
}
const HIT_LINE = /^(-?\d\.\d\d) {2}(\S+):(\d+)-(\d+) {2}(\w+) (\S+)$/;

describe('issue 15: codescout search for people (real CLI child)', () => {
  it('one line per hit with the similarity to the query (two decimals), then its first code line', async () => {
    const hits = await json('token bucket refill', ['-k', '3']);
    expect(hits.every((h) => h.similarity! > 0 && h.similarity! < 1)).toBe(true);
    const run = await search('token bucket refill', ['-k', '3']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    hits.forEach((h, i) => {
      const [, similarity, where, start, end, kind, symbol] = HIT_LINE.exec(lines[i * 2]!)!;
      expect([similarity, where, Number(start), Number(end), kind]).toEqual([h.similarity!.toFixed(2), h.path, h.startLine, h.endLine, h.kind]);
      expect(symbol === h.symbol || symbol!.endsWith(`.${h.symbol}`)).toBe(true);
    });
    expect(run.stdout).not.toContain(hits[0]!.score.toFixed(4));
    expect(lines[0]).toMatch(/^0\.\d\d {2}src\/util\/token-bucket\.ts:/);
    const withText = await json('token bucket refill', ['-k', '3', '--text']);
    withText.forEach((h, i) => expect(lines[i * 2 + 1]).toBe(`      ${h.text!.split('\n').find((l) => /[A-Za-z0-9]/.test(l))!.trim()}`));
  });

  it('-C n adds n code lines per hit, --text the whole chunk, -l prints each file once', async () => {
    const [top] = await json('hash a password with a salt', ['-k', '1', '--text']);
    expect(top).toMatchObject({ path: 'src/users/password.ts', symbol: 'hashPassword' });
    const code = top!.text!.split('\n');
    const more = await search('hash a password with a salt', ['-k', '1', '-C', '2']);
    expect(more.stdout.split('\n').slice(1, 4)).toEqual(code.slice(0, 3).map((l) => `      ${l}`));
    const whole = await search('hash a password with a salt', ['-k', '1', '--text']);
    expect(whole.stdout.trimEnd().split('\n').slice(1)).toEqual(code.map((l) => (l === '' ? '' : `      ${l}`)).map((l) => l.trimEnd()));

    const hits = await json('token bucket', ['-k', '6']);
    const files = await search('token bucket', ['-k', '6', '-l']);
    expect(files.code).toBe(0);
    expect(files.stdout.trimEnd().split('\n')).toEqual([...new Set(hits.map((h) => h.path))]);
  });

  it('--threshold hides hits less similar than it, in the people output and the JSON', async () => {
    const all = await json('invoice total with tax', ['-k', '8']);
    const cut = (all[0]!.similarity! + all.at(-1)!.similarity!) / 2;
    const kept = await json('invoice total with tax', ['-k', '8', '--threshold', String(cut)]);
    expect(kept).toEqual(all.filter((h) => h.similarity! >= cut));
    expect(kept.length).toBeLessThan(all.length);
    const people = await search('invoice total with tax', ['-k', '8', '--threshold', String(cut)]);
    const sims = people.stdout.split('\n').filter((l) => HIT_LINE.test(l)).map((l) => Number(l.slice(0, 4)));
    expect(sims).toEqual(kept.map((h) => Number(h.similarity!.toFixed(2))));
    const none = await search('invoice total with tax', ['--threshold', '0.99']);
    expect(none.stdout).toBe('No results with similarity >= 0.99.\n');

    const bad = await search('invoice', ['--threshold', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('codescout: --threshold must be a number from 0 to 1 (a similarity, e.g. 0.3); got "2".\n');
    const lexical = await search('invoice', ['--threshold', '0.3', '--mode', 'lexical']);
    expect(lexical.code).toBe(2);
    expect(lexical.stderr).toMatch(/^codescout: --threshold compares the similarity of each hit to the query, which --mode lexical does not compute/);
  });

  it('shows the parts of one split symbol as one hit, from its first part to its last', async () => {
    const query = 'reconcile the warehouse ledger against stock counts';
    const hits = await json(query, ['-k', '20']);
    const parts = hits.filter((h) => h.symbol === 'reconcileLedger');
    expect(parts.length).toBeGreaterThanOrEqual(2);
    const run = await search(query, ['-k', '10']);
    const rows = run.stdout.split('\n').filter((l) => HIT_LINE.test(l));
    const ledger = rows.filter((l) => l.endsWith(' function reconcileLedger'));
    expect(ledger).toHaveLength(1);
    const [, , , start, end] = HIT_LINE.exec(ledger[0]!)!;
    expect(Number(start)).toBe(Math.min(...parts.map((h) => h.startLine)));
    expect(Number(end)).toBe(Math.max(...parts.map((h) => h.endLine)));
    expect(ledger[0]!.slice(0, 4)).toBe(Math.max(...parts.map((h) => h.similarity!)).toFixed(2));
  });
});
