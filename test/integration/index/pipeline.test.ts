import { afterEach, describe, expect, it } from 'vitest';
import { openIndex, type CodeIndex } from '../../../src/index.js';
import type { Embedder } from '../../../src/embed/embedder.js';
import type { UpdateProgress } from '../../../src/indexer/update-report.js';
import { runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';
import { loadTestEmbedder } from '../../helpers/model.js';
import { parseOneJson } from '../../helpers/robustness.js';

// Issue 17: chunks are committed (searchable by words) before their vectors; a filler embeds the queue beside
// the chunking; a stopped build keeps everything committed and the next run finishes it.

const trees: TempTree[] = [];
const indexes: CodeIndex[] = [];
afterEach(async () => {
  for (const i of indexes.splice(0)) await i.close();
  for (const t of trees.splice(0)) await t.dispose();
});

/** `count` files, each defining one function with a distinctive name. */
function sourceFiles(count: number): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `src/mod${i % 5}/feature${i}.ts`,
      `/** Computes the shipping fee of zone ${i}. */\nexport function shippingFeeZone${i}(weight: number): number {\n  return weight * ${i + 2} + ${i};\n}\n`,
    ]),
  );
}

/** The real model, held back: each embed call waits until `release()` (timing is what this test controls). */
async function gatedEmbedder(): Promise<{ embedder: Embedder; release: () => void; calls: () => number }> {
  const real = await loadTestEmbedder();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let calls = 0;
  const embedder: Embedder = {
    model: real.model, dimension: real.dimension, revision: real.revision, maxTokens: real.maxTokens,
    countTokens: (t) => real.countTokens(t),
    embedQuery: (t) => real.embedQuery(t),
    async embed(texts, signal) {
      calls++;
      await gate;
      return real.embed(texts, signal);
    },
    dispose: async () => undefined,
  };
  return { embedder, release: () => open(), calls: () => calls };
}

describe('searchable at once: words first, vectors behind', () => {
  it('while the embedder is held back every file is chunked and found by its words; hybrid answers and says how many wait', async () => {
    const t = await createTempTree(sourceFiles(60));
    trees.push(t);
    const gated = await gatedEmbedder();
    const index = await openIndex({ root: t.root, cacheDir: t.cacheDir, offline: true, embedder: gated.embedder });
    indexes.push(index);
    const events: UpdateProgress[] = [];
    const building = index.update({ onProgress: (p) => events.push(p) });
    // Chunking does not wait for inference: all 60 files are committed while the first embed call is still held.
    await waitUntil(() => gated.calls() >= 1);
    expect(events.some((e) => e.phase === 'index' && e.filesDone === 60)).toBe(true);
    expect((await index.stats())).toMatchObject({ files: 60, vectors: 0 });
    expect((await index.stats()).chunksWaiting).toBe((await index.stats()).chunks);
    const lexical = await index.search('shippingFeeZone42', { mode: 'lexical', k: 3 });
    expect(lexical[0]).toMatchObject({ path: 'src/mod2/feature42.ts', symbol: 'shippingFeeZone42' });
    const hybrid = await index.search('shippingFeeZone17', { mode: 'hybrid', k: 3 });
    expect(hybrid[0]).toMatchObject({ path: 'src/mod2/feature17.ts' });
    gated.release();
    const report = await building;
    expect(report).toMatchObject({ files: 60, embedded: 60 });
    expect((await index.stats())).toMatchObject({ chunksWaiting: 0, vectors: (await index.stats()).chunks });
    expect((await index.verify())).toEqual([]);
    const waited = events.filter((e) => e.phase === 'index').map((e) => e.textsWaiting ?? 0);
    expect(Math.max(...waited)).toBe(60);
    expect(waited[waited.length - 1]).toBe(0);
  });

  it('identical text waiting in two files is embedded once and both rows get the vector', async () => {
    const body = '/** Shared helper text. */\nexport function sameEverywhere(x: number): number {\n  return x + 1;\n}\n';
    const t = await createTempTree({ 'a/one.ts': body, 'b/two.ts': body, 'c/three.ts': body });
    trees.push(t);
    const index = await openIndex({ root: t.root, cacheDir: t.cacheDir, offline: true, embedder: await loadTestEmbedder() });
    indexes.push(index);
    const report = await index.update();
    // The path line is not part of the text the vector is made of, so the three chunks share one text.
    expect(report.embedded).toBe(1);
    expect((await index.stats())).toMatchObject({ chunks: 3, vectors: 3, chunksWaiting: 0 });
    expect((await index.verify())).toEqual([]);
  });
});

describe('stop and resume', () => {
  it('a build killed with SIGKILL mid-embedding keeps its chunks; the next run embeds only what waits and matches a clean build', async () => {
    // Enough texts that embedding outlasts the CLI's one-line-a-second progress on a fast machine (1,600 short
    // texts embed in about 3 s on 2 cores), so the kill lands while chunks still wait.
    const count = 1600;
    const files = sourceFiles(count);
    const t = await createTempTree(files);
    trees.push(t);
    const child = spawnCli(['index', t.root, '--cache-dir', t.cacheDir]);
    await waitForOutput(child, 'stderr', /indexing: \d+\/1600 files, [1-9]\d* chunks embedded, [1-9]\d* waiting/);
    child.kill('SIGKILL');
    await waitForExit(child);
    const status = parseOneJson(await runCli(['status', t.root, '--cache-dir', t.cacheDir, '--json'])) as { files: number; chunksWaiting: number; chunks: number };
    expect(status.chunksWaiting).toBeGreaterThan(0);
    const resumed = parseOneJson(await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--json'])) as { embedded: number; files: number };
    expect(resumed.files).toBe(count);
    // Only what was not embedded before the kill (plus what was never chunked) is embedded now.
    expect(resumed.embedded).toBeLessThan(count);
    const verified = await runCli(['status', t.root, '--cache-dir', t.cacheDir, '--verify', '--json']);
    expect(verified.code, verified.stderr).toBe(0);
    expect(parseOneJson(verified)).toMatchObject({ files: count, chunks: count, vectors: count, chunksWaiting: 0, problems: [] });
    // Same answers as a clean build of the same tree.
    const clean = await createTempTree(files);
    trees.push(clean);
    expect((await runCli(['index', clean.root, '--cache-dir', clean.cacheDir])).code).toBe(0);
    const ask = (tree: TempTree) => runCli(['search', 'shipping fee of zone 123', '--root', tree.root, '--cache-dir', tree.cacheDir, '--json', '-k', '5']);
    const hits = (r: Awaited<ReturnType<typeof ask>>) => (parseOneJson(r) as { hits: Array<{ path: string }> }).hits.map((h) => h.path);
    expect(hits(await ask(t))).toEqual(hits(await ask(clean)));
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
