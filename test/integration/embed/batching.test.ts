import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSource, MultiLanguageChunker } from '../../../src/chunk/index.js';
import { defaultModelsDir } from '../../../src/config.js';
import { discoverFiles } from '../../../src/discover/index.js';
import { MODELS } from '../../../src/embed/models.js';
import { resolveModel } from '../../../src/embed/provision-model.js';
import { TransformersEmbedder } from '../../../src/embed/transformers-embedder.js';
import { cosine, loadTestEmbedder } from '../../helpers/model.js';

// Length-bucketed batching with the real q8 model. Its weights quantise activations per tensor, so a text's vector
// moves slightly with its batch neighbours; these tests hold batched vectors to the tolerance measured for issue 17
// (scripts/bench-embed.ts --batches) and check that bucketing never mixes up which vector belongs to which text.
const BATCHED_COSINE_MIN = 0.97;

const spec = MODELS['all-MiniLM-L6-v2']!;
const fixtures = path.resolve(import.meta.dirname, '../../fixtures');

/** Embed texts of the fixture repositories' chunks: realistic code and docs, short to 256 tokens; every k-th of them. */
async function fixtureChunkTexts(count: number): Promise<string[]> {
  const chunker = new MultiLanguageChunker({ maxTokens: spec.maxTokens });
  const texts: string[] = [];
  for (const repo of ['retrieval-repo', 'polyglot-repo']) {
    const { files } = await discoverFiles({ root: path.join(fixtures, repo) });
    for (const f of files) {
      const content = decodeSource(await readFile(f.absPath));
      for (const c of chunker.chunk({ path: f.path, language: f.language, content }).chunks) texts.push(c.embedText);
    }
  }
  const unique = [...new Set(texts)];
  const step = Math.max(1, Math.floor(unique.length / count));
  return unique.filter((_, i) => i % step === 0).slice(0, count);
}

let texts: string[];
let single: Float32Array[];
/** The default batching with two intra-op threads (8 rows, sorted by length). */
let batched: TransformersEmbedder;
/** The widest batching measured: 32 rows, no token cap. */
let wide: TransformersEmbedder;

beforeAll(async () => {
  texts = await fixtureChunkTexts(120);
  const one = await loadTestEmbedder();
  single = [];
  for (const t of texts) single.push((await one.embed([t]))[0]!);
  const { dir } = await resolveModel({ spec, modelsDir: defaultModelsDir(), allowHub: false });
  batched = await TransformersEmbedder.load({ spec, dir, threads: 2 });
  wide = await TransformersEmbedder.load({ spec, dir, threads: 1, batchSize: 32, batchTokens: Number.POSITIVE_INFINITY });
});

afterAll(async () => {
  await batched.dispose();
  await wide.dispose();
});

describe('length-bucketed batches (real all-MiniLM-L6-v2, q8)', () => {
  it('uses a realistic mixed-length set', () => {
    const lengths = texts.map((t) => batched.tokenize(t).length);
    expect(texts.length).toBe(120);
    expect(Math.min(...lengths)).toBeLessThan(40);
    expect(Math.max(...lengths)).toBeGreaterThan(200);
  });

  it(`keeps every text's batched vector within cosine ${BATCHED_COSINE_MIN} of its batch-1 vector`, async () => {
    expect(batched.batchLimits.maxRows).toBe(8);
    for (const e of [batched, wide]) {
      const vectors = await e.embed(texts);
      expect(vectors).toHaveLength(texts.length);
      const cosines = vectors.map((v, i) => cosine(v, single[i]!));
      expect(Math.min(...cosines)).toBeGreaterThanOrEqual(BATCHED_COSINE_MIN);
      // Most texts move far less than the worst one.
      expect(cosines.reduce((sum, c) => sum + c, 0) / cosines.length).toBeGreaterThan(0.99);
    }
  });

  it('returns vectors in input order after sorting by length: each is nearest to its own text', async () => {
    // Longest first, then shuffled halves: the bucketing must reorder and put every vector back.
    const order = texts.map((_, i) => i).sort((a, b) => texts[b]!.length - texts[a]!.length);
    const shuffled = [...order.filter((_, k) => k % 2 === 1), ...order.filter((_, k) => k % 2 === 0)];
    for (const e of [batched, wide]) {
      const vectors = await e.embed(shuffled.map((i) => texts[i]!));
      vectors.forEach((v, k) => {
        let nearest = -1;
        let best = -Infinity;
        for (let j = 0; j < single.length; j++) {
          const c = cosine(v, single[j]!);
          if (c > best) [best, nearest] = [c, j];
        }
        expect(nearest).toBe(shuffled[k]);
      });
    }
  });

  it('gives identical vectors for the same list embedded twice (deterministic batches)', async () => {
    const a = await batched.embed(texts);
    const b = await batched.embed(texts);
    a.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(b[i]!)));
  });

  it('embeds no texts to no vectors, and a single text exactly as batch 1 does', async () => {
    expect(await batched.embed([])).toEqual([]);
    const [alone] = await batched.embed([texts[0]!]);
    expect(Array.from(alone!)).toEqual(Array.from(single[0]!));
    expect(alone).toHaveLength(spec.dimension);
  });
});
