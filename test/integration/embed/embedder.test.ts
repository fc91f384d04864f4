import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultModelsDir } from '../../../src/config.js';
import { ModelLoadError } from '../../../src/errors.js';
import { MODELS } from '../../../src/embed/models.js';
import { resolveModel } from '../../../src/embed/provision-model.js';
import { TransformersEmbedder } from '../../../src/embed/transformers-embedder.js';
import { cosine, loadTestEmbedder } from '../../helpers/model.js';

const norm = (v: Float32Array): number => Math.sqrt(cosine(v, v));

describe('TransformersEmbedder (real all-MiniLM-L6-v2)', () => {
  it('reports its identity: model, dimension and the sha256 of the weights', async () => {
    const e = await loadTestEmbedder();
    expect(e.model).toBe('all-MiniLM-L6-v2');
    expect(e.dimension).toBe(384);
    expect(e.revision).toBe(MODELS['all-MiniLM-L6-v2']!.onnxSha256);
  });

  it('puts "rate limit incoming requests" closer to throttling than to date parsing', async () => {
    const e = await loadTestEmbedder();
    const [q, throttle, date] = await e.embed([
      'rate limit incoming requests',
      'throttle calls per second per client',
      'parse an ISO date string',
    ]);
    expect(cosine(q!, throttle!)).toBeGreaterThan(cosine(q!, date!) + 0.2);
  });

  it('puts a short description closer to the code that implements it than to unrelated code', async () => {
    const e = await loadTestEmbedder();
    const query = await e.embedQuery('compute the checksum of a file');
    const [impl, other] = await e.embed([
      "export async function fileChecksum(path: string) {\n  const hash = createHash('sha256');\n  for await (const c of createReadStream(path)) hash.update(c);\n  return hash.digest('hex');\n}",
      'export function renderButton(label: string) {\n  return `<button class="btn">${label}</button>`;\n}',
    ]);
    expect(cosine(query, impl!)).toBeGreaterThan(cosine(query, other!));
  });

  it('is deterministic, batches stay within cosine 0.97 of one-by-one (q8 activations), and every vector has length 1', async () => {
    const e = await loadTestEmbedder();
    const texts = ['short', 'a somewhat longer sentence about indexing code', 'function add(a, b) { return a + b; }', 'x'.repeat(300)];
    const batch = await e.embed(texts);
    const again = await e.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await e.embed([texts[i]!]);
      expect(cosine(batch[i]!, single!)).toBeGreaterThan(0.97);
      for (let d = 0; d < e.dimension; d++) expect(batch[i]![d]).toBe(again[i]![d]);
      expect(norm(batch[i]!)).toBeCloseTo(1, 5);
    }
  });

  it('handles an empty string, a 20,000-character input, non-ASCII text and emoji', async () => {
    const e = await loadTestEmbedder();
    const long = 'const value = compute(input);\n'.repeat(700);
    expect(long.length).toBeGreaterThan(20_000);
    const vectors = await e.embed(['', long, 'Grüße aus Zürich — 東京の天気', 'ship it 🚀🔥']);
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      expect(v).toHaveLength(384);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // Truncation: the long input and its first 256 tokens' worth of text embed the same.
    const [head] = await e.embed([long.slice(0, 4000)]);
    expect(cosine(vectors[1]!, head!)).toBeGreaterThan(0.9999);
  });

  it('a model folder missing a file gives a typed error naming the folder and the file', async () => {
    const spec = MODELS['all-MiniLM-L6-v2']!;
    const src = path.join(defaultModelsDir(), spec.id);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codescout-model-'));
    try {
      await cp(src, dir, { recursive: true });
      await rm(path.join(dir, 'tokenizer.json'));
      const load = TransformersEmbedder.load({ spec, dir });
      await expect(load).rejects.toBeInstanceOf(ModelLoadError);
      await expect(load).rejects.toThrow(`${dir} is missing tokenizer.json`);
      await expect(resolveModel({ spec, modelDir: dir, modelsDir: dir })).rejects.toThrow('tokenizer.json');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loads from the shared models folder with no network source enabled', async () => {
    const spec = MODELS['all-MiniLM-L6-v2']!;
    const found = await resolveModel({ spec, modelsDir: defaultModelsDir(), allowHub: false, allowMaven: false });
    expect(found).toEqual({ dir: path.join(defaultModelsDir(), spec.id), origin: 'models-folder' });
  });
});
