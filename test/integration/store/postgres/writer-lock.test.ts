import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, IndexLockedError } from '../../../../src/errors.js';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { StoreUnavailableError } from '../../../../src/store/postgres/store-unavailable-error.js';
import { chunk, fileInput, unit } from '../../../support/postgres-fixtures.js';
import { isPostgresSkipped, waitFor, withClient } from '../../../support/postgres-server.js';
import { postgresSuite } from '../../../support/postgres-suite.js';

describe.skipIf(isPostgresSkipped)('PostgreSQL store: one writer per namespace', () => {
  const suite = postgresSuite();
  let repos = 0;

  async function openAs(mode: 'write' | 'read', repo: string, ref = 'main', lockWaitMs?: number): Promise<PostgresCatalog> {
    const catalog = await PostgresCatalog.open({ connectionString: suite.server.connectionString, repo, ref, mode, lockWaitMs });
    return suite.track(catalog);
  }

  /** Server processes of codescout connections other than `except` whose last statement was the writer lock's try-lock. */
  async function lockTriers(except: number): Promise<number[]> {
    return withClient(suite.server.connectionString, async (c) => (await c.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = 'codescout' AND query LIKE 'SELECT pg_try_advisory_lock(%' AND pid <> $1`, [except],
    )).rows.map((r) => r.pid));
  }

  it('refuses a second writer, naming the holder, and lets it in once the first closes', async () => {
    const repo = `locks-${++repos}`;
    const first = await openAs('write', repo);
    expect(first.lockHolder).toMatchObject({ host: hostname(), pid: process.pid });
    const refused = await openAs('write', repo).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(IndexLockedError);
    const error = refused as IndexLockedError;
    expect(error.exitCode).toBe(5);
    expect(error.pid).toBe(process.pid);
    expect(error.message).toBe(
      `Another writer is writing ${repo}@main on ${suite.server.connectionString.replace(suite.server.password, '***')}: ` +
        `host ${hostname()}, pid ${process.pid}, since ${first.lockHolder!.startedAt} (server process ${first.lockHolder!.backendPid}). ` +
        'Wait for it to finish or stop it; readers are not affected.',
    );
    expect(error.message).not.toContain(suite.server.password);

    // Other refs of the same repository and readers of this one are not held up.
    const branch = await openAs('write', repo, 'feature');
    await branch.replaceFile(fileInput('b.ts', [{ chunk: chunk('b', 'b()'), vector: unit(1, 0, 0, 0) }]));
    const reader = await openAs('read', repo);
    expect(await reader.listFiles()).toEqual([]);

    await first.close();
    const second = await openAs('write', repo);
    expect(second.lockHolder!.backendPid).not.toBe(first.lockHolder!.backendPid);
    const rows = await withClient(suite.server.connectionString, async (c) => (await c.query(
      'SELECT w.host, w.pid, w.backend_pid FROM writer_locks w JOIN namespaces n ON n.id = w.namespace_id WHERE n.repo = $1 AND n.ref = $2', [repo, 'main'],
    )).rows);
    expect(rows).toEqual([{ host: hostname(), pid: process.pid, backend_pid: second.lockHolder!.backendPid }]);
  });

  it('lets a writer that waits (lockWaitMs) in once the holder closes', async () => {
    const repo = `locks-${++repos}`;
    const first = await openAs('write', repo);
    const started = Date.now();
    const waiting = openAs('write', repo, 'main', 5000);
    // Its try-lock seen while the first still holds the lock: it was refused, and is waiting.
    await waitFor('the second writer to try the lock', async () => (await lockTriers(first.lockHolder!.backendPid)).length === 1, 5000);
    await first.close();
    const second = await waiting;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(second.lockHolder).toMatchObject({ host: hostname(), pid: process.pid });
    expect(second.lockHolder!.backendPid).not.toBe(first.lockHolder!.backendPid);
  });

  it('refuses a writer that waited lockWaitMs in vain, naming the holder', async () => {
    const repo = `locks-${++repos}`;
    const first = await openAs('write', repo);
    // The holder as another machine's writer would record it, so the error's pid is the holder's, not this process's.
    await withClient(suite.server.connectionString, (c) => c.query(
      "UPDATE writer_locks SET host = 'ci-runner-7', pid = 424242 WHERE backend_pid = $1", [first.lockHolder!.backendPid],
    ));
    const started = Date.now();
    const refused = await openAs('write', repo, 'main', 200).then(() => undefined, (error: unknown) => error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(refused).toBeInstanceOf(IndexLockedError);
    const error = refused as IndexLockedError;
    expect(error.pid).toBe(424242);
    expect(error.message).toBe(
      `Another writer is writing ${repo}@main on ${suite.server.connectionString.replace(suite.server.password, '***')}: ` +
        `host ci-runner-7, pid 424242, since ${first.lockHolder!.startedAt} (server process ${first.lockHolder!.backendPid}) after waiting 200 ms. ` +
        'Wait for it to finish or stop it; readers are not affected.',
    );
    await first.replaceFile(fileInput('still.ts', [{ chunk: chunk('still', 'still()'), vector: unit(1, 0, 0, 0) }]));
    expect((await first.listFiles()).map((f) => f.path)).toEqual(['still.ts']);
  });

  it('fails a waiting writer whose connection dies as lost, without crashing the process', async () => {
    const repo = `locks-${++repos}`;
    const first = await openAs('write', repo);
    const waiting = openAs('write', repo, 'main', 20_000).then(() => undefined, (error: unknown) => error);
    let waiter = 0;
    await waitFor('the second writer to try the lock', async () => {
      [waiter = 0] = await lockTriers(first.lockHolder!.backendPid);
      return waiter !== 0;
    }, 5000);
    await withClient(suite.server.connectionString, (c) => c.query('SELECT pg_terminate_backend($1)', [waiter]));
    const error = await waiting;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ failure: 'lost' });
    expect((await first.listFiles())).toEqual([]);
  });

  it('frees the lock of a writer whose connection dies, and that writer can no longer write', async () => {
    const repo = `locks-${++repos}`;
    const killed = await openAs('write', repo);
    await withClient(suite.server.connectionString, (c) => c.query('SELECT pg_terminate_backend($1)', [killed.lockHolder!.backendPid]));
    const next = await openAs('write', repo);
    expect(next.lockHolder!.backendPid).not.toBe(killed.lockHolder!.backendPid);
    const write = killed.replaceFile(fileInput('k.ts', [{ chunk: chunk('k', 'k()'), vector: unit(1, 0, 0, 0) }]));
    await expect(write).rejects.toThrow(StoreUnavailableError);
    await expect(write).rejects.toMatchObject({ failure: 'lost' });
    expect(await next.listFiles()).toEqual([]);
  });

  it('refuses writes through a catalog opened for reading', async () => {
    const repo = `locks-${++repos}`;
    const writer = await openAs('write', repo);
    await writer.replaceFile(fileInput('w.ts', [{ chunk: chunk('w', 'w()'), vector: unit(1, 0, 0, 0) }]));
    const reader = await openAs('read', repo);
    await expect(reader.removeFiles(['w.ts'])).rejects.toThrow(ConfigError);
    await expect(reader.removeFiles(['w.ts'])).rejects.toThrow(/was opened for reading/);
    expect((await reader.listFiles()).map((f) => f.path)).toEqual(['w.ts']);
  });
});
