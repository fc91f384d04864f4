import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { openIndex, type CodeIndex } from '../../src/index.js';

/** The folder of a fixture code base under test/fixtures. */
export function fixturePath(name: string): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures', name);
}

/**
 * An index of the fixture `name` (test/fixtures/<name>) for the calling test file: built in a temp cache before its
 * first test, closed and removed after its last. Read `index` and `cacheDir` inside tests and hooks.
 */
export function fixtureIndex(name: string): { readonly root: string; readonly index: CodeIndex; readonly cacheDir: string } {
  const root = fixturePath(name);
  let index: CodeIndex | undefined;
  let cacheDir: string | undefined;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), `codescout-${name}-`));
    index = await openIndex({ root, cacheDir, offline: true });
    await index.update();
  });
  afterAll(async () => {
    await index?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });
  return {
    root,
    get index(): CodeIndex {
      if (!index) throw new Error(`fixtureIndex(${name}): the index is built in beforeAll; use it inside a test or hook`);
      return index;
    },
    get cacheDir(): string {
      if (!cacheDir) throw new Error(`fixtureIndex(${name}): the cache dir is made in beforeAll`);
      return cacheDir;
    },
  };
}
