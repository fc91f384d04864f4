import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Throwaway PostgreSQL clusters for tests: `initdb` in a temp folder, `pg_ctl start` on a free loopback port with
 * the unix socket inside the temp folder, a password-protected superuser, `CREATE EXTENSION vector`; and a
 * streaming read replica of one (`pg_basebackup -R` + a standby). The binaries come from
 * `node scripts/pg/install-postgres.mjs` (`CODESCOUT_POSTGRES_DIR`, default `<repo>/index-cache/postgres`).
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN_IN_INSTALL = join('pgserver', 'pginstall', 'bin');
/** Small settings: the test machine has two cores and other work running. */
const SERVER_SETTINGS = {
  shared_buffers: '32MB', max_connections: '20', max_wal_senders: '4', fsync: 'off', synchronous_commit: 'off',
  full_page_writes: 'off', huge_pages: 'off', dynamic_shared_memory_type: 'posix', max_worker_processes: '4',
  max_parallel_workers: '0', autovacuum: 'off', log_min_messages: 'warning', listen_addresses: "'127.0.0.1'",
} as const;
const START_TIMEOUT_S = 60;
const USER = 'codescout';
const DATABASE = 'codescout';

/** True when the caller opted out of the PostgreSQL tests (`CODESCOUT_SKIP_POSTGRES=1`). */
export const isPostgresSkipped = process.env.CODESCOUT_SKIP_POSTGRES === '1';

/** One running throwaway cluster. */
export interface PostgresServer {
  /** `postgres://codescout:<password>@127.0.0.1:<port>/codescout`. */
  readonly connectionString: string;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  /** The temp folder holding the data directory, the socket and the log. */
  readonly folder: string;
  readonly dataDir: string;
  /** The server log, for failure messages. */
  log(): string;
  /** Stops the server (fast shutdown, immediate if that fails) and removes its folder; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * The folder holding `postgres`, `initdb`, `pg_ctl` and `pg_basebackup`. Throws (never skips) when they are
 * missing, naming the command that installs them.
 */
export function postgresBinDir(): string {
  const install = resolve(process.env.CODESCOUT_POSTGRES_DIR ?? join(repoRoot, 'index-cache', 'postgres'));
  const bin = join(install, BIN_IN_INSTALL);
  if (!existsSync(join(bin, 'postgres'))) {
    throw new Error(
      `PostgreSQL binaries not found in ${bin}. Run: node scripts/pg/install-postgres.mjs ` +
        '(or set CODESCOUT_SKIP_POSTGRES=1 to leave out the PostgreSQL store tests, issue 18)',
    );
  }
  if (process.getuid?.() === 0) assertOthersCanReach(bin);
  return bin;
}

/** Under root the server runs as `nobody`, which must be able to walk to the binaries (a clone in /root cannot). */
function assertOthersCanReach(bin: string): void {
  for (let dir = bin; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `PostgreSQL refuses to run as root, so the tests run it as nobody, who cannot enter ${dir}. Install it somewhere ` +
          'others can read: CODESCOUT_POSTGRES_DIR=/opt/codescout-postgres node scripts/pg/install-postgres.mjs, and run the tests with that variable set',
      );
    }
    if (dirname(dir) === dir) return;
  }
}

/** When tests run as root, the server runs as `nobody` (PostgreSQL refuses root). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function chownTree(path: string, user: { uid: number; gid: number } | undefined): void {
  if (user === undefined) return;
  chownSync(path, user.uid, user.gid);
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) chownTree(join(path, entry), user);
}

/** Runs a PostgreSQL tool to completion as the server user; rejects with its output on a non-zero exit. */
function run(tool: string, args: readonly string[], options: { timeoutMs?: number } = {}): Promise<string> {
  const user = serverUser();
  const spawnOptions: SpawnOptions = {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' },
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
  };
  return new Promise((resolvePromise, reject) => {
    const child = spawn(join(postgresBinDir(), tool), args, spawnOptions);
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(output);
      else reject(new Error(`${tool} ${args.join(' ')} exited ${code ?? signal}: ${output.trim()}`));
    });
  });
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

function settingsText(port: number, socketDir: string): string {
  const lines = Object.entries(SERVER_SETTINGS).map(([k, v]) => `${k} = ${v}`);
  return `\n# codescout test server\n${lines.join('\n')}\nport = ${port}\nunix_socket_directories = '${socketDir}'\n`;
}

/**
 * A watchdog shell per server: when this process is gone (a worker killed mid-test, an afterAll that timed out),
 * it shuts the server down at once (SIGQUIT to the postmaster) and removes its folder. `stop()` ends it first.
 */
function startWatchdog(folder: string, dataDir: string): ChildProcess {
  const script = `while kill -0 ${process.pid} 2>/dev/null && [ -d '${folder}' ]; do sleep 1; done
[ -f '${dataDir}/postmaster.pid' ] && kill -QUIT "$(head -n 1 '${dataDir}/postmaster.pid')" 2>/dev/null
sleep 2; rm -rf '${folder}'`;
  const watchdog = spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  return watchdog;
}

/** A new temp folder owned by the server user, watched from its creation on (initdb and pg_basebackup included). */
function serverFolder(prefix: string): { folder: string; dataDir: string; watchdog: ChildProcess } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  chownTree(folder, serverUser());
  const dataDir = join(folder, 'data');
  return { folder, dataDir, watchdog: startWatchdog(folder, dataDir) };
}

/** Removes a folder whose server never started, and its watchdog. */
function discardFolder(place: { folder: string; watchdog: ChildProcess }): void {
  place.watchdog.kill();
  rmSync(place.folder, { recursive: true, force: true });
}

async function startCluster(place: { folder: string; dataDir: string; watchdog: ChildProcess }, password: string): Promise<PostgresServer> {
  const { folder, dataDir, watchdog } = place;
  const socketDir = join(folder, 'socket');
  mkdirSync(socketDir, { recursive: true });
  chownTree(socketDir, serverUser());
  const logFile = join(folder, 'server.log');
  let lastError: unknown;
  // A free port can be taken between looking and listening; another port is tried then.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    appendFileSync(join(dataDir, 'postgresql.conf'), settingsText(port, socketDir));
    try {
      await run('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', String(START_TIMEOUT_S), 'start']);
    } catch (error) {
      lastError = error;
      continue;
    }
    let stopped = false;
    const host = '127.0.0.1';
    return {
      connectionString: `postgres://${USER}:${password}@${host}:${port}/${DATABASE}`,
      host, port, user: USER, password, database: DATABASE, folder, dataDir,
      log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        try {
          await run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '30', 'stop']);
        } catch {
          await run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
        }
        watchdog.kill();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  discardFolder(place);
  throw new Error(`PostgreSQL did not start: ${String(lastError)}\n${log}`);
}

/**
 * Starts a new cluster: a superuser `codescout` with a random password (scram-sha-256 on every connection, so a bad
 * password fails), a database `codescout` with the `vector` extension. Call `stop()` in afterAll.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const place = serverFolder('codescout-pg-');
  const password = randomBytes(12).toString('hex');
  const pwfile = join(place.folder, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  chownTree(pwfile, serverUser());
  try {
    await run('initdb', ['-D', place.dataDir, '-U', USER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-sync', '--no-instructions']);
  } catch (error) {
    discardFolder(place);
    throw error;
  }
  rmSync(pwfile);
  const server = await startCluster(place, password);
  try {
    await withClient(server.connectionString.replace(/\/codescout$/, '/postgres'), (c) => c.query(`CREATE DATABASE ${DATABASE}`));
    await withClient(server.connectionString, (c) => c.query('CREATE EXTENSION vector'));
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/**
 * Starts a streaming read replica of `primary` (`pg_basebackup -R -X stream`, then a standby on its own port).
 * Readers connect to its `connectionString`; writes there fail as on any hot standby.
 */
export async function startReplica(primary: PostgresServer): Promise<PostgresServer> {
  const place = serverFolder('codescout-pg-replica-');
  const source = `host=${primary.host} port=${primary.port} user=${primary.user} password=${primary.password} dbname=${primary.database}`;
  try {
    await run('pg_basebackup', ['-D', place.dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync', '-d', source]);
  } catch (error) {
    discardFolder(place);
    throw error;
  }
  return startCluster(place, primary.password);
}

/** Connects, runs `fn`, disconnects. */
export async function withClient<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Waits (polling every 50 ms, up to `timeoutMs`) until `check` returns true; throws naming `what` otherwise. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
