import { existsSync, mkdtempSync, rmdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { TREE_SITTER_LANGUAGES, type LanguageSpec } from '../chunk/languages/index.js';
import { loadWasmParser } from '../chunk/wasm-grammar.js';
import { openIndex } from '../code-index.js';
import { resolveConfig, type Config } from '../config.js';
import { createEmbedder } from '../embed/create-embedder.js';
import { isCompleteModelFolder } from '../embed/model-folder.js';
import { indexDirFor } from '../indexer/index-location.js';
import { CATALOG_FILE } from '../store/catalog-open.js';
import { eprintln, printJson, println, type CliIO } from './output.js';

const require = createRequire(import.meta.url);

/** Exit code of `doctor` when a check finds a problem (the README's "bad usage / setup" code). */
export const EXIT_DOCTOR_PROBLEM = 2;

/** Oldest Node major version codescout runs on. */
const MIN_NODE_MAJOR = 20;

/** One check's outcome, as printed and as `doctor --json` reports it. */
export interface DoctorCheck {
  id: string;
  status: 'ok' | 'problem' | 'skipped';
  detail: string;
  fix?: string;
}

/** Options of `codescout doctor`. */
export interface DoctorCliOptions {
  cacheDir?: string;
  model?: string;
  modelDir?: string;
  modelsDir?: string;
  json?: boolean;
}

const ok = (id: string, detail: string): DoctorCheck => ({ id, status: 'ok', detail });
const problem = (id: string, detail: string, fix: string): DoctorCheck => ({ id, status: 'problem', detail, fix });
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** Runs `check`, turning a throw into a problem with `fix`. */
async function attempt(id: string, fix: string, check: () => Promise<string> | string): Promise<DoctorCheck> {
  try {
    return ok(id, await check());
  } catch (error) {
    return problem(id, messageOf(error), fix);
  }
}

const REINSTALL = 'reinstall codescout with a C++ toolchain (python3, make, g++) so its native modules build for this Node: npm rebuild';

function checkNode(): DoctorCheck {
  const version = process.versions.node;
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return ok('node', `Node ${version} (${MIN_NODE_MAJOR} or newer needed)`);
  return problem('node', `Node ${version} is too old (${MIN_NODE_MAJOR} or newer needed)`, `install Node ${MIN_NODE_MAJOR} or newer (https://nodejs.org)`);
}

/** The native modules codescout loads, each proved by a small real call. */
async function checkNativeModules(): Promise<DoctorCheck[]> {
  return Promise.all([
    attempt('native:better-sqlite3', REINSTALL, () => {
      const Database = require('better-sqlite3') as new (file: string) => { prepare(sql: string): { get(): unknown }; close(): void };
      const db = new Database(':memory:');
      db.prepare('select 1').get();
      db.close();
      return 'better-sqlite3 loads';
    }),
    attempt('native:hnswlib-node', REINSTALL, () => {
      const { HierarchicalNSW } = require('hnswlib-node') as { HierarchicalNSW: new (space: string, dim: number) => { initIndex(max: number): void } };
      new HierarchicalNSW('cosine', 4).initIndex(1);
      return 'hnswlib-node loads';
    }),
    attempt('native:onnxruntime-node', 'reinstall onnxruntime-node for this platform: npm rebuild onnxruntime-node', () => {
      const ort = require('onnxruntime-node') as { InferenceSession?: unknown };
      if (ort.InferenceSession === undefined) throw new Error('onnxruntime-node loaded without InferenceSession');
      return 'onnxruntime-node loads';
    }),
    attempt('native:tree-sitter', REINSTALL, () => {
      const Parser = require('tree-sitter') as new () => unknown;
      new Parser();
      return 'tree-sitter loads';
    }),
  ]);
}

/** Every grammar of {@link TREE_SITTER_LANGUAGES} (one check per spec; `jsx` shares JavaScript's). */
async function checkGrammars(): Promise<DoctorCheck[]> {
  const seen = new Map<LanguageSpec, string>();
  for (const [language, spec] of Object.entries(TREE_SITTER_LANGUAGES)) if (spec && !seen.has(spec)) seen.set(spec, language);
  const checks: DoctorCheck[] = [];
  for (const [spec, language] of seen) {
    const fix = `reinstall codescout (npm rebuild); until then ${language} files are indexed by lines, not by symbols`;
    checks.push(
      await attempt(`grammar:${language}`, fix, async () => {
        if (spec.wasm !== undefined) {
          await loadWasmParser(spec.wasm());
          return `${language} grammar loads (WASM)`;
        }
        const Parser = require('tree-sitter') as new () => { setLanguage(grammar: unknown): void };
        new Parser().setLanguage(spec.grammar());
        return `${language} grammar loads`;
      }),
    );
  }
  return checks;
}

/**
 * Whether a folder can be written: a probe folder is made (and removed) in it, or in its nearest existing
 * ancestor when it does not exist yet (codescout creates it on first use). Real writes, so root and read-only
 * mounts are judged right.
 */
function probeWritable(dir: string): { writable: true } | { writable: false; reason: string } {
  let existing = dir;
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  try {
    if (!statSync(existing).isDirectory()) return { writable: false, reason: `${existing} is a file, not a folder` };
    rmdirSync(mkdtempSync(path.join(existing, '.codescout-doctor-')));
    return { writable: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { writable: false, reason: `${existing === dir ? dir : `${existing} (to create ${dir})`} cannot be written${code ? ` (${code})` : ''}` };
  }
}

function checkWritable(id: string, dir: string, what: string, fix: string): DoctorCheck {
  const probe = probeWritable(dir);
  return probe.writable ? ok(id, `${what} ${dir} is writable`) : problem(id, `${what}: ${probe.reason}`, fix);
}

/** Finds the model where codescout looks (never downloads) and proves it loads by embedding one sentence. */
async function checkModel(config: Config): Promise<DoctorCheck> {
  const spec = config.model;
  const candidates = config.modelDir !== undefined
    ? [path.resolve(config.modelDir)]
    : [path.join(config.modelsDir, spec.id), ...config.fallbackModelsDirs.map((d) => path.join(d, spec.id))];
  const dir = candidates.find((d) => isCompleteModelFolder(d, spec));
  if (dir === undefined) {
    const where = candidates.join(' or ');
    return problem('model', `${spec.id} is not provisioned (looked in ${where})`, `codescout model fetch ${spec.id}${config.modelDir === undefined ? '' : ' (or fix --model-dir / CODESCOUT_MODEL_DIR)'}`);
  }
  return attempt('model', `provision it again: codescout model fetch ${spec.id}`, async () => {
    const embedder = await createEmbedder({ spec, modelDir: dir, modelsDir: config.modelsDir, offline: true });
    try {
      const [vector] = await embedder.embed(['codescout doctor']);
      return `${spec.id} loads from ${dir} (${vector!.length}d)`;
    } finally {
      await embedder.dispose();
    }
  });
}

/** The health of the root's index, when one exists (`index.verify()`); skipped otherwise. */
async function checkIndex(config: Config): Promise<DoctorCheck> {
  const indexDir = indexDirFor(config.cacheDir, config.root);
  if (!existsSync(path.join(indexDir, CATALOG_FILE))) {
    return { id: 'index', status: 'skipped', detail: `no index of ${config.root} in ${config.cacheDir} yet`, fix: `build it: codescout index ${config.root}` };
  }
  const rebuild = `rebuild it: codescout index ${config.root} --rebuild`;
  try {
    const index = await openIndex({ root: config.root, cacheDir: config.cacheDir, model: config.model.id, modelDir: config.modelDir, modelsDir: config.modelsDir });
    try {
      const problems = await index.verify();
      const s = await index.stats();
      if (problems.length > 0) return problem('index', `${indexDir}: ${problems.length} problem(s): ${problems.slice(0, 3).join('; ')}`, rebuild);
      if (s.indexState === 'reset') return problem('index', `${indexDir} was reset after damage (${s.resetReason})`, rebuild);
      const waiting = s.chunksWaiting > 0 ? `, ${s.chunksWaiting} chunks waiting for vectors (codescout index finishes them)` : '';
      return ok('index', `${indexDir}: ${s.files} files, ${s.chunks} chunks, verified${waiting}`);
    } finally {
      await index.close();
    }
  } catch (error) {
    return problem('index', `${indexDir}: ${messageOf(error)}`, rebuild);
  }
}

/**
 * `codescout doctor [root]`: checks the toolchain, native modules, grammars, model, the writable folders and the
 * root's index; prints one line per check. Exits 0 when none found a problem, {@link EXIT_DOCTOR_PROBLEM} otherwise.
 */
export async function runDoctor(io: CliIO, root: string | undefined, o: DoctorCliOptions): Promise<number> {
  const config = resolveConfig({ root: root ?? '.', cacheDir: o.cacheDir, model: o.model, modelDir: o.modelDir, modelsDir: o.modelsDir });
  const checks: DoctorCheck[] = [checkNode(), ...(await checkNativeModules()), ...(await checkGrammars())];
  checks.push(await checkModel(config));
  checks.push(
    config.modelDir !== undefined
      ? { id: 'models-dir', status: 'skipped', detail: `the model is loaded from ${config.modelDir} (--model-dir); the models folder is not used` }
      : checkWritable('models-dir', config.modelsDir, 'models folder', 'set CODESCOUT_MODELS_DIR (or pass --models-dir) to a writable folder'),
  );
  checks.push(checkWritable('cache-dir', config.cacheDir, 'cache dir', 'pass a writable --cache-dir (or set CODESCOUT_CACHE_DIR, or cacheDir in codescout.json)'));
  checks.push(await checkIndex(config));
  const problems = checks.filter((c) => c.status === 'problem').length;
  if (o.json) {
    printJson(io, { ok: problems === 0, root: config.root, checks });
  } else {
    println(io, `codescout doctor: ${config.root}`);
    const width = Math.max(...checks.map((c) => c.id.length));
    for (const c of checks) {
      println(io, `${c.status.padEnd(8)} ${c.id.padEnd(width)}  ${c.detail}`);
      if (c.status === 'problem' && c.fix) println(io, `${' '.repeat(8)} ${' '.repeat(width)}  fix: ${c.fix}`);
    }
    println(io, problems === 0 ? 'all checks passed.' : `${problems} problem(s) found.`);
  }
  if (problems === 0) return 0;
  if (!o.json) eprintln(io, `codescout: doctor found ${problems} problem(s); see the "fix:" lines above.`);
  return EXIT_DOCTOR_PROBLEM;
}
