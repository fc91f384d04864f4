import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndex, startRetrieval, type CodeIndex } from '../../../src/index.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/retrieval-repo');
const THROTTLE = 'src/http/middleware/throttle.ts';
let tree: TempTree;
let index: CodeIndex;

beforeAll(async () => {
  tree = await createTempTree({}, FIXTURE);
  index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
  await index.update();
});
afterAll(async () => {
  await index.close();
  await tree.dispose();
});

describe('a session while the index changes between steps', () => {
  it('names no deleted file, shows the current lines of an edited one, and keeps judging', async () => {
    const session = await startRetrieval(index, { text: 'add rate limiting to the API endpoints', minHigh: 10 }, { relatedThreshold: 0 });
    const first = session.candidates().map((c) => c.path);
    expect(first).toContain(THROTTLE);
    const doomed = first.find((p) => p !== THROTTLE && p.startsWith('src/'))!;
    await session.judge(session.candidates().map((c) => ({ path: c.path, relevance: c.path === THROTTLE || c.path === doomed ? 0.9 : 0.3 })));
    const before = (await session.result());
    const oldThrottle = [...before.results, ...before.related].find((f) => f.path === THROTTLE)!;
    expect([...before.results, ...before.related].map((f) => f.path)).toContain(doomed);

    // Between two steps: a file is deleted, and three lines are added at the top of the throttle.
    await tree.remove(doomed);
    const original = await readFile(path.join(tree.root, THROTTLE), 'utf8');
    await tree.write(THROTTLE, `// one\n// two\n// three\n${original}`);
    await index.update();

    const after = (await session.result());
    const paths = [...after.results, ...after.related].map((f) => f.path);
    expect(paths).not.toContain(doomed);
    const newThrottle = [...after.results, ...after.related].find((f) => f.path === THROTTLE)!;
    expect(newThrottle.relevance).toBe(0.9);
    expect(newThrottle.chunks.length).toBe(oldThrottle.chunks.length);
    const lines = (f: typeof oldThrottle) => f.chunks.map((c) => `${c.symbol} ${c.startLine}-${c.endLine}`).sort();
    expect(lines(newThrottle)).toEqual(oldThrottle.chunks.map((c) => `${c.symbol} ${c.startLine + 3}-${c.endLine + 3}`).sort());
    // The session goes on with the index as it is now.
    while (!session.isDone) await session.judge([]);
    expect([...(await session.result()).results, ...(await session.result()).related].map((f) => f.path)).not.toContain(doomed);
  });
});
