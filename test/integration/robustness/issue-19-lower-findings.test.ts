import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

// Issue 19, finding 8 (the lower items), through the CLI in a child process with the real model.

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

async function tree(files: Record<string, string> = SMALL_REPO): Promise<TempTree> {
  const t = await createTempTree(files);
  trees.push(t);
  return t;
}

describe('issue 19: bad option values and cache dirs exit 2 at once', () => {
  it('-k 1e300 (and other non-decimal or out-of-range counts) is bad usage, not an unexpected error', async () => {
    const t = await tree();
    for (const k of ['1e300', '1001', '0x10']) {
      const run = await runCli(['search', 'invoice', '--root', t.root, '--cache-dir', t.cacheDir, '-k', k], { timeoutMs: 30_000 });
      expect([run.code, run.stderr.trim()]).toEqual([2, `codescout: -k must be a whole number from 1 to 1000; got "${k}".`]);
    }
  });

  // /proc and /sys exist on Linux only; elsewhere the path below a file stands for them.
  it.each([...(process.platform === 'linux' ? [['/proc/codescout', 'proc', '/proc'], ['/proc/self/x', 'proc', '/proc/self'], ['/sys/x', 'sysfs', '/sys']] : [])])(
    '--cache-dir %s is refused in one line instead of hanging',
    async (cacheDir, fs, existing) => {
      const t = await tree();
      for (const command of [['index', t.root], ['search', 'invoice', '--root', t.root]]) {
        const run = await runCli([...command, '--cache-dir', cacheDir], { timeoutMs: 20_000 });
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(new RegExp(`^codescout: Cannot create the index folder ${cacheDir}/repo-\\w+: ${existing} is on a ${fs} file system, which cannot hold an index\\. Pass a writable --cache-dir \\(or set CODESCOUT_CACHE_DIR\\)\\.\\n$`));
      }
    },
  );
});

describe('issue 19: output, cache dir and temp files', () => {
  it('a file name with a newline or an escape sequence cannot forge a result line or reach the terminal raw', async () => {
    const forged = 'evil\n0.9999  src/forged.ts:1-2  function forged.ts';
    const t = await tree({
      [forged]: 'export function computeShippingWeight(parcels: number[]): number {\n  return parcels.reduce((a, b) => a + b, 0);\n}\n',
      'esc\u001b[2Jclear.ts': 'export function computeShippingCost(weight: number): number {\n  return weight * 3;\n}\n',
    });
    expect((await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--no-progress'])).code).toBe(0);
    const run = await runCli(['search', 'compute shipping weight cost', '--root', t.root, '--cache-dir', t.cacheDir, '-k', '2']);
    expect(run.code).toBe(0);
    // Each hit is a line with its similarity (issue 15), then its first code line, indented.
    const lines = run.stdout.trimEnd().split('\n').filter((l) => !l.startsWith('      '));
    expect(lines.map((l) => l.replace(/^\d\.\d\d/, 'S')).sort()).toEqual([
      'S  esc\\e[2Jclear.ts:1-3  function computeShippingCost',
      'S  evil\\n0.9999  src/forged.ts:1-2  function forged.ts:1-3  function computeShippingWeight',
    ]);
    expect(run.stdout).not.toContain('\u001b');
  });

  it('a --cache-dir inside the root with another name is never indexed; stale temp files go; files are 0600', async () => {
    const t = await tree();
    const cacheDir = path.join(t.root, 'my-cache');
    const index = (): ReturnType<typeof runCli> => runCli(['index', t.root, '--cache-dir', cacheDir, '--json']);
    const first = await index();
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ files: 6 });
    const [indexDir] = readdirSync(cacheDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(cacheDir, d.name));
    expect(existsSync(path.join(indexDir!, 'vectors.json'))).toBe(true); // an indexable name, had the folder been walked
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const stale = path.join(indexDir!, `vectors.hnsw.tmp-${dead}`);
    writeFileSync(stale, 'half a graph');
    await t.write('src/util/extra.ts', 'export const extra = 1;\n');
    const second = await index();
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ files: 7, removed: 0 });
    expect(existsSync(stale)).toBe(false);
    const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8);
    expect(readdirSync(indexDir!).filter((n) => mode(path.join(indexDir!, n)) !== '600')).toEqual([]);
    expect([mode(cacheDir), mode(indexDir!)]).toEqual(['700', '700']);
  });
});
