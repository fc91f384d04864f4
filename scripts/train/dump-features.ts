/**
 * Training rows for the learned judge: runs the retrieval loop (hand-tuned judge) on every task of a dataset and
 * writes, per cycle, one row per candidate file: its features and whether it is a gold file.
 * Usage: npx tsx scripts/train/dump-features.ts --dataset <file.jsonl> --corpus <git dir> --out <rows.jsonl>
 *        [--cache-dir D] [--max-cycles 3] [--limit N] [--judge heuristic|learned]
 * `--judge learned` drives the loop with the current learned judge, so a second round of training sees the later
 * cycles that judge produces (its own trajectories), not only the heuristic's.
 * The output is data, rebuilt by this script: keep it out of git.
 */
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openIndex, startRetrieval } from '../../src/index.js';
import { FEATURE_NAMES } from '../../src/retrieve/file-features.js';
import { prepareCorpus } from '../eval/corpus.js';
import { loadDataset } from '../eval/dataset.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!, process.argv[i + 1] ?? '');
const need = (k: string): string => {
  const v = args.get(k);
  if (!v) throw new Error(`${k} is required`);
  return path.resolve(v);
};
const datasetFile = need('--dataset');
const corpusSource = need('--corpus');
const outFile = need('--out');
const maxCycles = Number(args.get('--max-cycles') ?? 3);
const limit = args.has('--limit') ? Number(args.get('--limit')) : Infinity;
const judge = args.get('--judge') === 'learned' ? 'learned' : 'heuristic';

const dataset = await loadDataset(datasetFile);
const { header } = dataset;
const log = (m: string): void => void process.stderr.write(`${m}\n`);
const corpus = await prepareCorpus({
  header, datasetFile, source: corpusSource, workDir: path.join(os.tmpdir(), 'codescout-eval', 'corpora'), fresh: false, onStep: (m) => log(`corpus: ${m}`),
});
const cacheDir = args.get('--cache-dir') ?? path.join(os.tmpdir(), 'codescout-eval', `${header.name}-all-MiniLM-L6-v2`);
const index = await openIndex({ root: corpus.dir, cacheDir, offline: true });
const out = createWriteStream(outFile);
try {
  const report = await index.update({ onProgress: (p) => (p.filesDone % 100 === 0 ? log(`index ${p.phase} ${p.filesDone}/${p.filesTotal}`) : undefined) });
  log(`${header.name}: ${report.files} files, ${report.chunks} chunks`);
  out.write(`${JSON.stringify({ type: 'header', dataset: header.name, kind: header.kind, repo: header.repo, features: FEATURE_NAMES })}\n`);
  let rows = 0;
  for (const [n, task] of dataset.tasks.entries()) {
    if (n >= limit) break;
    const gold = new Set(task.gold.map((g) => g.path));
    const session = await startRetrieval(index, { text: task.query, maxCycles }, { builtinJudge: judge, relatedThreshold: 0, withFeatures: true });
    while (!session.isDone) {
      for (const c of session.candidates()) {
        const f = c.hint.features!;
        out.write(`${JSON.stringify({ task: task.id, cycle: session.cycle, path: c.path, gold: gold.has(c.path) ? 1 : 0, golds: gold.size, x: FEATURE_NAMES.map((k) => Math.round(f[k]! * 1e4) / 1e4) })}\n`);
        rows++;
      }
      await session.judge([]);
    }
    if ((n + 1) % 50 === 0) log(`${header.name}: ${n + 1} tasks, ${rows} rows`);
  }
  log(`${header.name}: ${rows} rows -> ${outFile}`);
} finally {
  out.end();
  await index.close();
}
