/** Temporary folders and copies of a corpus, so benches never write into the tree or cache they were given. */
import { copyFile, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { discoverFiles } from '../../src/discover/index.js';

/** A fresh folder under the OS temp dir, e.g. `/tmp/codescout-bench-index-Ab12Cd`. */
export function makeTempDir(name: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `codescout-bench-${name}-`));
}

/** Deletes a folder made by {@link makeTempDir}. */
export function removeTempDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/**
 * Copies the files discovery finds under `root` (ignore rules already applied) into `dest`, `copies` times:
 * one copy goes straight into `dest`, several go into `dest/copy-1`, `dest/copy-2`, ... Returns the
 * relative paths written.
 */
export async function copyDiscoveredTree(o: { root: string; dest: string; copies?: number }): Promise<string[]> {
  const { files } = await discoverFiles({ root: o.root });
  const copies = o.copies ?? 1;
  const written: string[] = [];
  for (let c = 1; c <= copies; c++) {
    const prefix = copies === 1 ? '' : `copy-${c}/`;
    for (const f of files) {
      const target = path.join(o.dest, prefix + f.path);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(f.absPath, target);
      written.push(prefix + f.path);
    }
  }
  return written;
}

/** Total size of the files directly inside a folder (bytes), e.g. an index folder after close. */
export async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(dir, entry.name))).size;
  }
  return total;
}
