/**
 * A throwaway PostgreSQL server for benchmarks: the tests' cluster (test/support/postgres-server.ts: initdb in a temp
 * folder, loopback port, `nobody` under root, pgvector), restarted with settings nearer a team server's: durable
 * writes (fsync, full-page writes) but asynchronous commit (as the embedded store's WAL with synchronous=NORMAL),
 * buffers for the whole index, and room for many readers' pools.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { postgresBinDir, startPostgres, withClient, type PostgresServer } from '../../test/support/postgres-server.js';

/** ALTER SYSTEM settings applied before the restart; autovacuum stays off so it cannot land inside a timed phase. */
const BENCH_SETTINGS = {
  max_connections: '150', shared_buffers: '512MB', effective_cache_size: '2GB', maintenance_work_mem: '256MB',
  fsync: 'on', full_page_writes: 'on', synchronous_commit: 'off', max_parallel_workers: '0', autovacuum: 'off',
} as const;

/** Starts a cluster and restarts it with {@link BENCH_SETTINGS}. Call `stop()` when done. */
export async function startBenchPostgres(): Promise<PostgresServer> {
  const server = await startPostgres();
  try {
    await withClient(server.connectionString, async (c) => {
      for (const [name, value] of Object.entries(BENCH_SETTINGS)) await c.query(`ALTER SYSTEM SET ${name} = '${value}'`);
    });
    await runAsServerUser('pg_ctl', ['-D', server.dataDir, '-l', join(server.folder, 'server.log'), '-w', '-t', '60', 'restart', '-m', 'fast']);
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Bytes of the current database's files (every namespace and the shared cache; WAL not counted). */
export async function databaseBytes(connectionString: string): Promise<number> {
  return withClient(connectionString, async (c) => {
    const r = await c.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return Number(r.rows[0]!.bytes);
  });
}

/**
 * `VACUUM ANALYZE` of the whole database: what autovacuum would do within a minute of a bulk write, run at a known
 * moment instead (autovacuum is off during the bench).
 */
export async function vacuumAnalyze(connectionString: string): Promise<void> {
  await withClient(connectionString, (c) => c.query('VACUUM ANALYZE'));
}

/** Open client connections to the database (to check the reader pools really connected). */
export async function connectionCount(connectionString: string): Promise<number> {
  return withClient(connectionString, async (c) => {
    const r = await c.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend'");
    return Number(r.rows[0]!.n);
  });
}

/** Runs a PostgreSQL tool as the server user (`nobody` under root, as the tests' server does). */
function runAsServerUser(tool: string, args: readonly string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  const child = spawn(join(postgresBinDir(), tool), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' },
    ...(asRoot ? { uid: id('-u'), gid: id('-g') } : {}),
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} exited ${code}: ${output.trim()}`))));
  });
}
