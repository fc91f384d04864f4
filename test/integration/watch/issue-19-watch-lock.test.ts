import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { acquireWriteLock } from '../../../src/store/write-lock.js';
import { watchIndex, type IndexWatcher } from '../../../src/watch/watch-index.js';
import { eventually, nextBatch } from '../../helpers/events.js';
import { createTempTree, SMALL_REPO } from '../../helpers/fixture-tree.js';

// Issue 19, finding 4: a batch that cannot take the write lock within lockWaitMs (another writer, e.g. a long
// `codescout index`) was dropped, and its change never indexed. It must be kept and applied once the lock frees.

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** Resolves with the message of the first `warning` or `error` the watcher emits. */
function nextTrouble(watcher: IndexWatcher, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = (message: string): void => {
      clearTimeout(timer);
      watcher.off('warning', onWarning);
      watcher.off('error', onError);
      resolve(message);
    };
    const onWarning = (m: string): void => done(m);
    const onError = (e: Error): void => done(e.message);
    const timer = setTimeout(() => reject(new Error(`no warning or error within ${timeoutMs} ms`)), timeoutMs);
    watcher.on('warning', onWarning);
    watcher.on('error', onError);
  });
}

describe('issue 19: the watcher never drops a change set', () => {
  it('an edit made while another writer holds the lock past lockWaitMs is indexed once the lock frees', async () => {
    const tree = await createTempTree(SMALL_REPO);
    cleanup.push(() => tree.dispose());
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    cleanup.push(() => index.close());
    const watcher = watchIndex(index, { lockWaitMs: 200, lockRetryMs: 50 });
    cleanup.push(() => watcher.close());
    await watcher.ready;

    // Another writer (this process, so the lock is live and never taken over as stale).
    const lock = await acquireWriteLock(index.indexDir);
    let released = false;
    cleanup.push(async () => {
      if (!released) await lock.release();
    });
    const trouble = nextTrouble(watcher);
    await tree.write('src/geo/bearing.ts', 'export function initialBearingDegrees(lat1: number, lon1: number, lat2: number, lon2: number): number {\n  return Math.atan2(lon2 - lon1, lat2 - lat1) * 180 / Math.PI;\n}\n');
    expect(await trouble).toMatch(new RegExp(`is being written by process ${process.pid} .* The changes are kept and applied once it is done\\.$`));
    expect((await index.store.catalog.getFile('src/geo/bearing.ts'))).toBeUndefined();

    const applied = nextBatch(watcher, (b) => b.changed === 1 && b.report.embedded > 0);
    await lock.release();
    released = true;
    await applied;
    const paths = await eventually(async () => (await index.store.catalog.listFiles()).map((f) => f.path), (p) => p.includes('src/geo/bearing.ts'));
    expect(paths).toHaveLength(7);
    const hits = await index.search('compass bearing between two coordinates in degrees', { k: 3 });
    expect(hits.map((h) => `${h.path}#${h.symbol}`)).toContain('src/geo/bearing.ts#initialBearingDegrees');
    await watcher.idle();
    expect((await index.verify())).toEqual([]);
  });
});
