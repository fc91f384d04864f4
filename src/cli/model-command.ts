import { resolveModelSettings } from '../config.js';
import { createEmbedder } from '../embed/create-embedder.js';
import { MODELS } from '../embed/models.js';
import { eprintln, printJson, println, type CliIO } from './output.js';

/** `codescout model fetch [id]`: provisions a model, loads it and embeds one sentence to prove it works. */
export async function modelFetch(io: CliIO, id: string | undefined, opts: { modelsDir?: string; modelDir?: string; json?: boolean; offline?: boolean }): Promise<number> {
  const settings = resolveModelSettings({ model: id, modelsDir: opts.modelsDir, modelDir: opts.modelDir, offline: opts.offline });
  const spec = settings.model;
  const started = performance.now();
  const embedder = await createEmbedder({
    spec,
    modelsDir: settings.modelsDir,
    fallbackModelsDirs: settings.fallbackModelsDirs,
    modelDir: settings.modelDir,
    offline: settings.offline,
    mavenUrl: settings.mavenUrl,
    httpsProxy: settings.httpsProxy,
    onStep: (m) => eprintln(io, `model: ${m}`),
  });
  const [vector] = await embedder.embed(['codescout model check']);
  await embedder.dispose();
  const result = {
    model: spec.id,
    dir: embedder.dir,
    origin: embedder.origin,
    dimension: vector!.length,
    revision: embedder.revision,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
  };
  if (opts.json) printJson(io, result);
  else println(io, `${spec.id} ready in ${result.dir} (from ${result.origin}, ${result.dimension}d, sha256 ${result.revision.slice(0, 12)}, ${result.seconds}s)`);
  return 0;
}

/** `codescout model list`: the model table. */
export function modelList(io: CliIO, opts: { json?: boolean }): number {
  const rows = Object.values(MODELS).map((m) => ({ id: m.id, hfRepo: m.hfRepo, dimension: m.dimension, pooling: m.pooling, maxTokens: m.maxTokens }));
  if (opts.json) printJson(io, rows);
  else for (const r of rows) println(io, `${r.id.padEnd(20)} ${String(r.dimension).padEnd(4)} ${r.pooling.padEnd(5)} ${r.maxTokens} tokens  ${r.hfRepo}`);
  return 0;
}
