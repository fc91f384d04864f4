import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/store/catalog.js';
import { HnswStore } from '../../../src/store/hnsw-store.js';
import { removeStaleTempFiles } from '../../../src/store/stale-temp-files.js';
import { acquireWriteLock } from '../../../src/store/write-lock.js';
import { makeTempDirs, seededRandom, unitVector } from './store-helpers.js';

// Issue 19: an index holds the text of the code it indexed, yet the catalog was created 0644 whatever the source
// files' modes (finding 6); and temp files of a save killed midway were never removed (finding 8).

const tmp = makeTempDirs();
afterEach(() => tmp.cleanup());

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** Pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('issue 19: index files are 0600 and index folders 0700, whatever the umask', () => {
  it('catalog (with -wal and -shm), vector files, check stamps and the write lock', async () => {
    const previous = process.umask(0o022);
    try {
      const dir = join(tmp.make(), 'cache', 'repo-abc');
      const catalog = Catalog.open(dir);
      catalog.initManifest({ model: 'm', dimension: 4, revision: 'r', root: '/r' });
      const store = HnswStore.create({ indexDir: dir, dimension: 4 });
      store.upsert([{ rowId: 1, vector: unitVector(seededRandom(1), 4) }]);
      await store.save();
      HnswStore.load({ indexDir: dir, dimension: 4 }); // writes vectors.checked
      const lock = await acquireWriteLock(dir);
      const names = readdirSync(dir).sort();
      expect(names).toEqual(['catalog.checked', 'catalog.sqlite', 'catalog.sqlite-shm', 'catalog.sqlite-wal', 'vectors.checked', 'vectors.hnsw', 'vectors.json', 'write.lock']);
      expect(Object.fromEntries(names.map((n) => [n, modeOf(join(dir, n))]))).toEqual(Object.fromEntries(names.map((n) => [n, '600'])));
      expect([modeOf(dir), modeOf(join(dir, '..'))]).toEqual(['700', '700']);
      await lock.release();
      catalog.close();
    } finally {
      process.umask(previous);
    }
  });
});

describe('issue 19: temp files of a crashed save', () => {
  it('removes those of writers that no longer run and keeps those of live ones', async () => {
    const dir = tmp.make();
    const dead = deadPid();
    const stale = [`vectors.hnsw.tmp-${dead}`, `vectors.json.tmp-${dead}`, `catalog.checked.tmp-${dead}`, `write.lock.${dead}.0a1b2c3d4e5f6789`, `write.lock.stale-${dead}-0a1b2c3d4e5f6789`, `write.lock.break.${dead}.0a1b2c3d4e5f6789-break`];
    const live = [`vectors.hnsw.tmp-${process.pid}`, `vectors.json.tmp-${process.ppid}`];
    const other = ['catalog.sqlite', 'vectors.hnsw', 'notes.tmp-abc'];
    for (const name of [...stale, ...live, ...other]) writeFileSync(join(dir, name), 'x');
    expect((await removeStaleTempFiles(dir)).sort()).toEqual([...stale].sort());
    expect(readdirSync(dir).sort()).toEqual([...live, ...other].sort());
    expect(await removeStaleTempFiles(join(dir, 'missing'))).toEqual([]);
  });
});
