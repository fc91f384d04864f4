import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a stranger gets it: `npm pack` of the repository installed into a fresh project the README's way
 * (`allowScripts` denies onnxruntime-node's CUDA download; no ONNXRUNTIME_NODE_INSTALL, no .npmrc, no
 * legacy-peer-deps), then used through its bin, from ESM, from CommonJS, and type-checked with skipLibCheck off.
 * Packs the dist/ that `npm test` (or `npm run build`) built. Slow: the install compiles the native modules.
 */
const run = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
};
const MINUTES = 60_000;

/** The environment without what `npm test` passes on from the repository's .npmrc and CI. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'ONNXRUNTIME_NODE_INSTALL' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

let tmp: string;
let project: string;
let install: { code: number; output: string };

const ESM_USE = `
import { openIndex } from 'codescout';
const index = await openIndex({ root: process.argv[2] });
await index.update();
const hits = await index.search('token bucket that throttles requests', { k: 3 });
console.log(JSON.stringify({ top: hits[0]?.path, stats: (await index.stats()).chunks }));
await index.close();
`;

const CJS_USE = `
const codescout = require('codescout');
const { openIndex } = require('codescout');
(async () => {
  const index = await openIndex({ root: process.argv[2] });
  await index.update();
  const hits = await index.search('open the database connection', { k: 3 });
  const esm = await import('codescout');
  console.log(JSON.stringify({ top: hits[0]?.path, same: esm.CodeIndex === codescout.CodeIndex, chunks: (await index.stats()).chunks }));
  await index.close();
})().catch((error) => { console.error(error); process.exit(1); });
`;

const TYPES_ESM = `
import { openIndex, retrieve, startRetrieval, SCHEMAS, CodeIndexError, type CodeIndex, type Hit, type RetrievalResult } from 'codescout';
const index: CodeIndex = await openIndex({ root: '.' });
const hits: Hit[] = await index.search('x', { k: 3, mode: 'hybrid' });
const result: RetrievalResult = await retrieve(index, { text: 'x' });
const session = await startRetrieval(index, { text: 'x' });
const names: string[] = Object.keys(SCHEMAS);
console.log(hits.length, result.results.length, session.isDone, names, new CodeIndexError('m') instanceof Error);
await index.close();
`;

const TYPES_CJS = `
import { openIndex, retrieve, startRetrieval, SCHEMAS, type Hit, type RetrievalResult } from 'codescout';
export async function main(): Promise<number> {
  const index = await openIndex({ root: '.' });
  const hits: Hit[] = await index.search('x', { k: 3 });
  const result: RetrievalResult = await retrieve(index, { text: 'x' });
  const session = await startRetrieval(index, { text: 'x' });
  await index.close();
  return hits.length + result.results.length + Number(session.isDone) + Object.keys(SCHEMAS).length;
}
`;

function writeTree(root: string): void {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'src', 'throttle.ts'),
    `/** A token bucket: each request takes a token; tokens refill at a fixed rate. */
export class TokenBucket {
  private tokens: number;
  constructor(private readonly capacity: number, private readonly refillPerSecond: number) { this.tokens = capacity; }
  /** Throttles a request: false when the bucket is empty. */
  tryTake(): boolean {
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  refill(seconds: number): void { this.tokens = Math.min(this.capacity, this.tokens + seconds * this.refillPerSecond); }
}
`,
  );
  fs.writeFileSync(
    path.join(root, 'src', 'db.py'),
    `import sqlite3


def open_connection(path):
    """Opens the database connection and turns on foreign keys."""
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA foreign_keys = ON")
    return connection
`,
  );
}

async function node(args: string[], cwd: string): Promise<string> {
  const env = cleanEnv({ CODESCOUT_OFFLINE: '1', CODESCOUT_MODELS_DIR: process.env.CODESCOUT_MODELS_DIR ?? '' });
  const { stdout } = await run(process.execPath, args, { cwd, env, timeout: 5 * MINUTES, maxBuffer: 16 << 20 });
  return stdout;
}

describe('npm pack installed into a fresh project', () => {
  beforeAll(async () => {
    expect(process.env.CODESCOUT_MODELS_DIR, 'vitest.config.ts sets the models folder').toBeTruthy();
    for (const built of ['dist/index.js', 'dist/index.d.ts', 'dist/index.cjs', 'dist/index.d.cts']) {
      expect(fs.existsSync(path.join(repo, built)), `${built} missing: run npm run build`).toBe(true);
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'codescout-pack-'));
    // --ignore-scripts: pack the dist/ already built (prepare would rebuild it under other running tests).
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], {
      cwd: repo, env: cleanEnv(), maxBuffer: 64 << 20,
    });
    const tarball = path.join(tmp, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);

    project = path.join(tmp, 'consumer');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, allowScripts: { 'onnxruntime-node': false } }, null, 2),
    );
    const args = [
      'install', '--no-audit', '--no-fund', tarball,
      `typescript@${pkg.devDependencies.typescript}`, `@types/node@${pkg.devDependencies['@types/node']}`,
    ];
    try {
      const { stdout, stderr } = await run('npm', args, { cwd: project, env: cleanEnv(), timeout: 15 * MINUTES, maxBuffer: 64 << 20 });
      install = { code: 0, output: stdout + stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      install = { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  }, 20 * MINUTES);

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('installs without any variable or .npmrc and fetches no GPU binaries', () => {
    expect(install.code, install.output).toBe(0);
    expect(fs.existsSync(path.join(project, '.npmrc'))).toBe(false);
    const ortDir = path.join(project, 'node_modules', 'onnxruntime-node', 'bin');
    const files = fs.existsSync(ortDir) ? (fs.readdirSync(ortDir, { recursive: true }) as string[]) : [];
    expect(files.filter((f) => /providers_(cuda|tensorrt)/.test(f))).toEqual([]);
  });

  it('runs the bin: codescout --version prints the package version', async () => {
    expect(install.code, install.output).toBe(0);
    const { stdout } = await run(path.join(project, 'node_modules', '.bin', 'codescout'), ['--version'], { cwd: project, env: cleanEnv() });
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('loads from ESM (import) and indexes and searches a 2-file tree', async () => {
    expect(install.code, install.output).toBe(0);
    const root = path.join(tmp, 'tree-esm');
    writeTree(root);
    fs.writeFileSync(path.join(project, 'use.mjs'), ESM_USE);
    const out = JSON.parse((await node(['use.mjs', root], project)).trim().split('\n').pop()!) as { top: string; stats: number };
    expect(out.top).toBe('src/throttle.ts');
    expect(out.stats).toBeGreaterThan(0);
  }, 10 * MINUTES);

  it('loads from CommonJS (require) as the same module, and indexes and searches a 2-file tree', async () => {
    expect(install.code, install.output).toBe(0);
    const root = path.join(tmp, 'tree-cjs');
    writeTree(root);
    fs.writeFileSync(path.join(project, 'use.cjs'), CJS_USE);
    const out = JSON.parse((await node(['use.cjs', root], project)).trim().split('\n').pop()!) as { top: string; same: boolean; chunks: number };
    expect(out.top).toBe('src/db.py');
    expect(out.same).toBe(true);
    expect(out.chunks).toBeGreaterThan(0);
  }, 10 * MINUTES);

  it('says what to do when require() of ES modules is off', async () => {
    expect(install.code, install.output).toBe(0);
    const failed = await run(process.execPath, ['--no-experimental-require-module', '-e', "require('codescout')"], { cwd: project, env: cleanEnv() })
      .then(() => '')
      .catch((e: { stderr?: string }) => e.stderr ?? '');
    expect(failed).toContain("require('codescout') needs a Node.js that loads ES modules with require()");
    expect(failed).toContain("await import('codescout')");
  });

  it('type-checks an ESM and a CommonJS consumer with skipLibCheck false', async () => {
    expect(install.code, install.output).toBe(0);
    fs.writeFileSync(path.join(project, 'check-esm.mts'), TYPES_ESM);
    fs.writeFileSync(path.join(project, 'check-cjs.cts'), TYPES_CJS);
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { skipLibCheck: false, strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', noEmit: true, types: ['node'] },
        files: ['check-esm.mts', 'check-cjs.cts'],
      }),
    );
    const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', '.', '--traceResolution'], { cwd: project, env: cleanEnv(), maxBuffer: 256 << 20 })
      .then(({ stdout }) => ({ code: 0, stdout }))
      .catch((e: { code?: number; stdout?: string }) => ({ code: e.code ?? -1, stdout: e.stdout ?? '' }));
    const errors = result.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors).toEqual([]);
    expect(result.code).toBe(0);
    // Each side resolved its own declarations: ESM the .d.ts, CommonJS the .d.cts.
    expect(result.stdout).toMatch(/'codescout' was successfully resolved to '[^']*codescout\/dist\/index\.d\.ts'/);
    expect(result.stdout).toMatch(/'codescout' was successfully resolved to '[^']*codescout\/dist\/index\.d\.cts'/);
    expect(result.stdout).not.toMatch(/better-sqlite3/);
  }, 5 * MINUTES);
});
