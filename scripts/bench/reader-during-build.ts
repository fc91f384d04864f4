/**
 * What a search from another process costs while a build holds the write lock, with the build's HNSW graph saved on
 * the way (a checkpoint, issue 17) against not saved yet (the reader rebuilds the graph from the cached vectors).
 * Both states alternate in one run, on a copy of an existing index: the lock is held as a build would, the graph
 * files are moved aside for "missing" and put back after.
 * Usage: npx tsx scripts/bench/reader-during-build.ts <root> <cache dir> [rounds=5]
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { acquireWriteLock } from '../../src/store/write-lock.js';
const [root, cacheDir, repsArg] = process.argv.slice(2);
const indexDir = path.join(cacheDir!, readdirSync(cacheDir!).find((d) => existsSync(path.join(cacheDir!, d, 'catalog.sqlite')))!);
const graph = path.join(indexDir, 'vectors.hnsw');
const meta = path.join(indexDir, 'vectors.json');
copyFileSync(graph, graph + '.keep'); copyFileSync(meta, meta + '.keep');
const lock = await acquireWriteLock(indexDir); // a build in progress: the reader cannot save what it rebuilds
const times: Record<string, number[]> = { saved: [], missing: [] };
for (let i = 0; i < Number(repsArg ?? 5); i++) {
  for (const state of ['saved', 'missing'] as const) {
    if (state === 'missing') { rmSync(graph, { force: true }); rmSync(meta, { force: true }); }
    else { copyFileSync(graph + '.keep', graph); copyFileSync(meta + '.keep', meta); }
    const t = performance.now();
    const r = spawnSync('node', ['bin/codescout.js', 'search', 'launch a browser and open a new page', '--root', root!, '--cache-dir', cacheDir!, '--json', '--no-server'], { encoding: 'utf8' });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(r.stderr);
    times[state]!.push(ms);
    console.log(state, Math.round(ms), 'ms', /rebuilt/.test(r.stderr) ? 'rebuilt' : '', (JSON.parse(r.stdout).hits as unknown[]).length, 'hits');
  }
}
copyFileSync(graph + '.keep', graph); copyFileSync(meta + '.keep', meta);
await lock.release();
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log(`median: saved ${Math.round(med(times.saved!))} ms, missing ${Math.round(med(times.missing!))} ms`);
