import { existsSync } from 'node:fs';
import { rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openIndex, type CodeIndex, type OpenIndexOptions } from '../../../../src/index.js';
import { HIDDEN_FILE_HASH, type OverlayCatalog } from '../../../../src/store/overlay/overlay-catalog.js';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../../helpers/fixture-tree.js';
import { COMPASS, EDITED_THROTTLE, THROTTLE } from './edits.js';
import { isPostgresSkipped, startPostgres, type PostgresServer } from '../../../support/postgres-server.js';

// Issue 18: a reader of the shared index keeps the working tree's own edits in a local layer over it. Changed, added
// and deleted files answer at once; the shared namespace is never written; a file written back to the shared
// content leaves the layer. Real PostgreSQL, real model, real files.

const NS = { repo: 'fixtures/small', ref: 'main' } as const;

describe.skipIf(isPostgresSkipped)('a local layer of edits over a shared PostgreSQL index (real server, real model)', () => {
  let server: PostgresServer;
  let tree: TempTree;
  const open: CodeIndex[] = [];
  const openTracked = async (options: Partial<OpenIndexOptions>): Promise<CodeIndex> => {
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true, store: server.connectionString, ...NS, ...options });
    open.push(index);
    return index;
  };

  beforeAll(async () => {
    server = await startPostgres();
    tree = await createTempTree(SMALL_REPO);
    const writer = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true, store: server.connectionString, ...NS, storeRole: 'writer' });
    try {
      await writer.update();
    } finally {
      await writer.close();
    }
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((index) => index.close()));
    for (const [file, text] of Object.entries(SMALL_REPO)) await tree.write(file, text);
    await rm(path.join(tree.root, 'src/geo'), { recursive: true, force: true });
    await rm(path.join(tree.root, 'src/net/limits.ts'), { force: true });
    await rm(path.join(tree.root, 'src/net/hooks.ts'), { force: true });
    const reset = await openTracked({ localEdits: true });
    await reset.update(); // the working tree is the shared one again: the local layer empties
    await reset.close();
    open.splice(0);
  });
  afterAll(async () => {
    await tree?.dispose();
    await server?.stop();
  });

  const sharedFiles = async (): Promise<string[]> => {
    const shared = await PostgresCatalog.open({ connectionString: server.connectionString, ...NS, mode: 'read' });
    try {
      return (await shared.listFiles()).map((f) => `${f.path}:${f.contentHash}`);
    } finally {
      await shared.close();
    }
  };
  const localFiles = async (index: CodeIndex): Promise<string[]> =>
    (await (index.store.catalog as OverlayCatalog).local.listFiles()).map((f) => (f.contentHash === HIDDEN_FILE_HASH ? `${f.path} (hidden)` : f.path)).sort();

  it('an unchanged checkout leaves the layer empty and answers from the shared index', async () => {
    const index = await openTracked({ localEdits: true });
    const report = await index.update();
    expect(report).toMatchObject({ filesChanged: 0, embedded: 0, removed: 0, files: 6 });
    expect(await localFiles(index)).toEqual([]);
    const hits = await index.search('token bucket refill', { k: 3 });
    expect(hits[0]?.path).toBe('src/util/token-bucket.ts');
  });

  it('changed, added and deleted files answer at once, from this checkout; the shared namespace is not written', async () => {
    const before = await sharedFiles();
    const index = await openTracked({ localEdits: true });
    await tree.write(THROTTLE, EDITED_THROTTLE);
    await tree.write('src/geo/compass.ts', COMPASS);
    await rm(path.join(tree.root, 'src/billing/invoice.ts'));
    const report = await index.update();
    expect(report).toMatchObject({ filesChanged: 2, removed: 1, files: 6 });
    // Only the new function's text and the new file are embedded: the rest of throttle.ts comes from the shared cache.
    expect(report.embedded).toBe(2);
    expect(await localFiles(index)).toEqual(['src/billing/invoice.ts (hidden)', 'src/geo/compass.ts', THROTTLE]);

    for (const mode of ['lexical', 'vector', 'hybrid'] as const) {
      const drain = await index.search('drain a leaky bucket of queued requests', { k: 3, mode });
      expect(drain[0], mode).toMatchObject({ path: THROTTLE, symbol: 'drainLeakyBucket' });
      const compass = await index.search('compass heading from degrees', { k: 3, mode });
      expect(compass[0]?.path, mode).toBe('src/geo/compass.ts');
      const invoice = await index.search('sum the lines of an invoice and add tax', { k: 10, mode });
      expect(invoice.map((h) => h.path), mode).not.toContain('src/billing/invoice.ts');
      // The shared copy of throttle.ts is shadowed: each of its symbols comes once, from this checkout.
      const throttle = await index.search('throttleRequests', { k: 10, mode });
      expect(throttle.filter((h) => h.symbol === 'throttleRequests'), mode).toHaveLength(1);
    }
    expect((await index.stats()).files).toBe(6);
    expect(await sharedFiles()).toEqual(before);

    // Another process that only reads sees the same view (the layer on disk), and cannot write it.
    const reader = await openTracked({});
    expect((await reader.search('compass heading from degrees', { k: 1, mode: 'lexical' }))[0]?.path).toBe('src/geo/compass.ts');
    expect(() => reader.assertWritable()).toThrow(/open for reading.*watch --store/);
  });

  it('a reader leaves out a layer nobody keeps current (the watch ended or was killed), and says so', async () => {
    const keeper = await openTracked({ localEdits: true });
    await tree.write('src/geo/compass.ts', COMPASS);
    await keeper.update();
    const kept = await openTracked({});
    expect((await kept.search('compass heading from degrees', { k: 1, mode: 'lexical' }))[0]?.path).toBe('src/geo/compass.ts');
    expect(kept.notes.filter((n) => /local edits layer/.test(n))).toEqual([]);
    await keeper.close();
    const stale = await openTracked({});
    expect((await stale.search('compass heading from degrees', { k: 3, mode: 'lexical' })).map((h) => h.path)).not.toContain('src/geo/compass.ts');
    expect(stale.notes.join('\n')).toMatch(/is not kept current by a running watch or mcp; reading the shared index alone/);
    // A keeper killed without closing leaves its file behind: its dead pid does not count.
    const { readdir, writeFile } = await import('node:fs/promises');
    const layer = (await readdir(path.join(stale.indexDir, 'local-edits'))).find((name) => !name.startsWith('.'))!;
    await writeFile(path.join(stale.indexDir, 'local-edits', layer, 'keepers', '999999.json'), JSON.stringify({ host: hostname(), pid: 999_999, startedAt: '' }));
    const afterKill = await openTracked({});
    expect(afterKill.notes.join('\n')).toMatch(/not kept current/);
  });

  it('a pass touches the local layer\'s own files only: a shared file whose mtime moved leaves no local row', async () => {
    const index = await openTracked({ localEdits: true });
    await tree.write('src/geo/compass.ts', COMPASS);
    await index.update();
    const later = new Date(Date.now() + 120_000);
    for (const file of ['src/geo/compass.ts', 'src/util/dates.ts']) await utimes(path.join(tree.root, file), later, later);
    const report = await index.update();
    expect(report).toMatchObject({ filesChanged: 0, embedded: 0 });
    expect(await localFiles(index)).toEqual(['src/geo/compass.ts']);
    // The mtime as the file system reports it (utimes may store it a hair off the millisecond).
    const { mtimeMs } = await stat(path.join(tree.root, 'src/geo/compass.ts'));
    expect((await (index.store.catalog as OverlayCatalog).local.getFile('src/geo/compass.ts'))?.mtimeMs).toBe(mtimeMs);
  });

  it('scores a local file on the shared scale: an edit that keeps a function keeps its lexical score', async () => {
    const index = await openTracked({ localEdits: true });
    const score = async (): Promise<number> => {
      const hits = await index.search('throttleRequests refillPerSecond', { k: 5, mode: 'lexical' });
      const hit = hits.find((h) => h.path === THROTTLE && h.symbol === 'throttleRequests');
      expect(hit).toBeDefined();
      return hit!.score;
    };
    const shared = await score();
    await tree.write(THROTTLE, `${SMALL_REPO[THROTTLE]}\n// a trailing comment\n`);
    await index.update();
    expect(await localFiles(index)).toEqual([THROTTLE]);
    const local = await score();
    // Unscaled, the layer's own idf (a handful of chunks) would put it far below; scaled, within a few percent.
    expect(local / shared).toBeGreaterThan(0.85);
    expect(local / shared).toBeLessThan(1.15);
  });

  it('ranks local files by both layers\' word statistics: words common in the few edited files are not dropped', async () => {
    const index = await openTracked({ localEdits: true });
    // Three of the layer's four chunks hold "rate" and "limit"; one holds "middleware".
    await tree.write('src/net/limits.ts', [
      '/** The rate limit of date parsing per second. */\nexport function parseRateLimit(): number {\n  return 10;\n}\n',
      '/** The rate limit of password checks per minute. */\nexport function passwordRateLimit(): number {\n  return 5;\n}\n',
      '/** The rate limit of invoice exports per hour. */\nexport function exportRateLimit(): number {\n  return 2;\n}\n',
    ].join('\n'));
    await tree.write('src/net/hooks.ts', '/** Runs before every request handler. */\nexport function invoiceMiddleware(): void {\n  return;\n}\n');
    await index.update();
    expect(await localFiles(index)).toEqual(['src/net/hooks.ts', 'src/net/limits.ts']);
    // By the layer's own statistics "rate" and "limit" are common words and would leave the query, and the three
    // functions with them would vanish. The same tree indexed whole is the reference.
    const whole = await openIndex({ root: tree.root, cacheDir: path.join(tree.cacheDir, 'whole'), offline: true });
    open.push(whole);
    await whole.update();
    const top = async (i: CodeIndex) => new Map((await i.search('rate limit middleware', { k: 5, mode: 'lexical' })).map((h) => [h.symbol, h.score]));
    const [overlay, reference] = [await top(index), await top(whole)];
    for (const symbol of ['parseRateLimit', 'passwordRateLimit', 'exportRateLimit', 'invoiceMiddleware']) {
      expect(overlay.has(symbol), `${symbol} in ${[...overlay.keys()].join(', ')}`).toBe(true);
      expect(overlay.get(symbol)! / reference.get(symbol)!, symbol).toBeGreaterThan(0.8);
      expect(overlay.get(symbol)! / reference.get(symbol)!, symbol).toBeLessThan(1.25);
    }
  });

  it('a file written back to the shared content, or restored after a delete, leaves the layer', async () => {
    const index = await openTracked({ localEdits: true });
    await tree.write(THROTTLE, EDITED_THROTTLE);
    await rm(path.join(tree.root, 'src/util/dates.ts'));
    await index.update();
    expect(await localFiles(index)).toEqual([THROTTLE, 'src/util/dates.ts (hidden)']);
    await tree.write(THROTTLE, SMALL_REPO[THROTTLE]!);
    await tree.write('src/util/dates.ts', SMALL_REPO['src/util/dates.ts']!);
    await index.update();
    expect(await localFiles(index)).toEqual([]);
    expect((await index.search('parse an ISO date', { k: 1 }))[0]?.path).toBe('src/util/dates.ts');
    expect(await index.search('drainLeakyBucket', { k: 5, mode: 'lexical' })).toEqual([]);
    expect(await index.verify()).toEqual([]);
  });

  it('a plain reader keeps nothing on this machine; a writer of the shared store is refused a rebuild by readers', async () => {
    const other = await createTempTree(SMALL_REPO);
    try {
      const reader = await openIndex({ root: other.root, cacheDir: other.cacheDir, offline: true, store: server.connectionString, ...NS });
      open.push(reader);
      expect((await reader.search('hashPassword', { k: 1, mode: 'lexical' }))[0]?.path).toBe('src/users/password.ts');
      expect(existsSync(reader.indexDir)).toBe(false);
      await expect(openIndex({ root: other.root, cacheDir: other.cacheDir, offline: true, store: server.connectionString, ...NS, rebuild: true }))
        .rejects.toThrow(/cannot rebuild/);
    } finally {
      await other.dispose();
    }
  });
});
