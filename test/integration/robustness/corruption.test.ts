import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO } from '../../helpers/fixture-tree.js';
import { DAMAGE_QUERY, filesMatching, indexDirOf, parseOneJson, STACK_FRAME, useIndexTemplate } from '../../helpers/robustness.js';
import { assertMatchesSchema } from '../mcp/mcp-client.js';

// Issue 9 ("Never lose, never corrupt"): damage to any index file is either repaired without re-embedding
// (vectors), moved aside and rebuilt (catalog), or reported by `status --verify` with exit 6; never a stack
// trace, never a silently different answer.

const t = useIndexTemplate();
const QUERY = DAMAGE_QUERY;

const cli = (args: string[], cacheDir: string) => runCli([...args, '--cache-dir', cacheDir]);
const verifyRun = (cacheDir: string, json = false) => cli(['status', t.tree.root, '--verify', ...(json ? ['--json'] : [])], cacheDir);

describe('status --verify', () => {
  it('passes a healthy index: "verify: ok", exit 0; --json adds problems: [] and matches the schema', async () => {
    const { cacheDir } = await t.freshCopy();
    const human = await verifyRun(cacheDir);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^verify: {3}ok$/m);
    const json = await verifyRun(cacheDir, true);
    expect(json.code).toBe(0);
    const status = parseOneJson(json) as { problems: string[]; files: number };
    assertMatchesSchema('status', status);
    expect(status).toMatchObject({ problems: [], files: 6 });
    // Without --verify the output is unchanged: no problems field.
    expect(parseOneJson(await cli(['status', t.tree.root, '--json'], cacheDir))).not.toHaveProperty('problems');
  });

  const damages: Array<[string, (db: Database.Database) => void, RegExp]> = [
    ['cached embeddings deleted', (db) => db.exec('DELETE FROM embeddings'), /\d+ chunks have no cached vector/],
    ['a full-text row deleted', (db) => db.exec('DELETE FROM chunks_fts WHERE rowid = (SELECT min(id) FROM chunks)'), /fts: \d+ rows for \d+ chunks/],
    [
      // The open-time reconcile drops its vector; the full-text row it leaves behind is what verify reports.
      'a chunk row deleted behind the full-text index',
      (db) => db.exec('DELETE FROM chunks WHERE id = (SELECT max(id) FROM chunks)'),
      /fts: (\d+) rows for \d+ chunks/,
    ],
    [
      'a cached vector altered',
      (db) => {
        const row = db.prepare('SELECT rowid, vector FROM embeddings LIMIT 1').get() as { rowid: number; vector: Buffer };
        const v = new Float32Array(new Uint8Array(row.vector).buffer.slice(0)).reverse();
        db.prepare('UPDATE embeddings SET vector = ? WHERE rowid = ?').run(Buffer.from(v.buffer), row.rowid);
      },
      /vectors: [1-9]\d* HNSW vectors differ from their chunk's cached embedding/,
    ],
  ];
  it.each(damages)('names the damage (%s), exits 6 with a --rebuild hint; index --rebuild repairs it', async (_name, damage, expected) => {
    const { cacheDir, dir } = await t.freshCopy();
    const db = new Database(path.join(dir, 'catalog.sqlite'));
    damage(db);
    db.close();

    const human = await verifyRun(cacheDir);
    expect(human.code).toBe(6);
    expect(human.stdout).toMatch(/^verify: {3}[1-9]\d* problem\(s\)$/m);
    expect(human.stdout).toMatch(expected);
    expect(human.stderr).toContain(`failed verification. Rebuild it: codescout index ${t.tree.root} --rebuild`);
    expect(human.stderr).not.toMatch(STACK_FRAME);
    const json = await verifyRun(cacheDir, true);
    expect(json.code).toBe(6);
    const { problems } = parseOneJson(json) as { problems: string[] };
    expect(problems.join('\n')).toMatch(expected);

    const rebuilt = await cli(['index', t.tree.root, '--rebuild', '--json'], cacheDir);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect((await verifyRun(cacheDir)).code).toBe(0);
  });
});

describe('a damaged catalog.sqlite is moved aside and rebuilt by codescout index', () => {
  const damages: Array<[string, (file: string) => Promise<void>]> = [
    ['truncated to half', async (file) => truncate(file, Math.floor((await stat(file)).size / 2))],
    ['overwritten with garbage', (file) => writeFile(file, randomBytes(64 * 1024))],
    ['its header zeroed', async (file) => {
      const bytes = await readFile(file);
      bytes.fill(0, 0, 100);
      await writeFile(file, bytes);
    }],
  ];
  it.each(damages)('%s: one line says so, exit 0, the index is complete and verifies, search answers as before', async (_name, damage) => {
    const { cacheDir, dir } = await t.freshCopy();
    await damage(path.join(dir, 'catalog.sqlite'));

    const run = await cli(['index', t.tree.root, '--json'], cacheDir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^codescout: The index database was damaged \(.+\); moved it aside to .+catalog\.sqlite\.corrupt-\S+ and started a fresh one/m);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(parseOneJson(run)).toMatchObject({ files: 6, skipped: 0 });
    expect(await filesMatching(dir, /^catalog\.sqlite\.corrupt-/)).toHaveLength(1);

    expect((await verifyRun(cacheDir)).code).toBe(0);
    const search = await cli([...QUERY, '--root', t.tree.root], cacheDir);
    expect(search.stdout).toBe(t.baselineSearch);
  });
});

describe('damaged vector files are rebuilt from the catalog with nothing re-embedded', () => {
  const damages: Array<[string, (dir: string) => Promise<void>]> = [
    ['vectors.hnsw truncated', async (dir) => truncate(path.join(dir, 'vectors.hnsw'), 1000)],
    ['vectors.hnsw overwritten with garbage', async (dir) => {
      const file = path.join(dir, 'vectors.hnsw');
      await writeFile(file, randomBytes((await stat(file)).size));
    }],
    ['vectors.json garbage', (dir) => writeFile(path.join(dir, 'vectors.json'), '{"formatVersion": 1, "dimen')],
    ['vectors.json deleted', (dir) => rm(path.join(dir, 'vectors.json'))],
  ];
  it.each(damages)('%s: search answers as before, index --json embeds 0 and saves a good graph', async (_name, damage) => {
    const { cacheDir, dir } = await t.freshCopy();
    await damage(dir);

    // A reader repairs in memory: the same answer, with a note on stderr.
    const search = await cli([...QUERY, '--root', t.tree.root], cacheDir);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toBe(t.baselineSearch);
    expect(search.stderr).toMatch(/^codescout: The vector index could not be used \(.+\); rebuilt it from the catalog's cached vectors, nothing re-embedded\.$/m);

    const run = await cli(['index', t.tree.root, '--json'], cacheDir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(parseOneJson(run)).toMatchObject({ files: 6, embedded: 0 });
    // The writer saved a sound graph: the next open needs no repair.
    const after = await verifyRun(cacheDir);
    expect(after.code).toBe(0);
    expect(after.stderr).toBe('');
  });

  it('vector files copied from another index are not trusted (their labels name other chunks)', async () => {
    const { cacheDir, dir } = await t.freshCopy();
    const other = await createTempTree({
      ...SMALL_REPO,
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/extra/e${i}.ts`, `export function extra${i}(n: number): number {\n  return n * ${i + 2};\n}\n`])),
    });
    try {
      expect((await runCli(['index', other.root, '--cache-dir', other.cacheDir])).code).toBe(0);
      const otherDir = indexDirOf(other.cacheDir, other.root);
      for (const f of ['vectors.hnsw', 'vectors.json']) await copyFile(path.join(otherDir, f), path.join(dir, f));
    } finally {
      await other.dispose();
    }
    const search = await cli([...QUERY, '--root', t.tree.root], cacheDir);
    expect(search.stdout).toBe(t.baselineSearch);
    expect(search.stderr).toMatch(/vectors\.hnsw is newer than the catalog .* built for another catalog/);
    expect((await verifyRun(cacheDir)).code).toBe(0);
  });

  it('verify catches foreign vectors that slip past the open-time checks', async () => {
    // Same generation and row ids, other content: only comparing the vectors themselves can tell.
    const { cacheDir, dir } = await t.freshCopy();
    const db = new Database(path.join(dir, 'catalog.sqlite'));
    const rows = db.prepare('SELECT rowid, vector FROM embeddings').all() as Array<{ rowid: number; vector: Buffer }>;
    const update = db.prepare('UPDATE embeddings SET vector = ? WHERE rowid = ?');
    db.transaction(() => rows.forEach((r, i) => update.run(rows[(i + 1) % rows.length]!.vector, r.rowid)))();
    db.close();
    const run = await verifyRun(cacheDir, true);
    expect(run.code).toBe(6);
    const { problems, chunks } = parseOneJson(run) as { problems: string[]; chunks: number };
    expect(problems).toEqual([`vectors: ${chunks} HNSW vectors differ from their chunk's cached embedding`]);
    expect(existsSync(path.join(dir, 'vectors.hnsw'))).toBe(true);
  });
});
