import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, IndexLockedError } from '../../../../src/errors.js';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { StoreUnavailableError } from '../../../../src/store/postgres/store-unavailable-error.js';
import { chunk, fileInput, unit } from '../../../support/postgres-fixtures.js';
import { isPostgresSkipped, withClient } from '../../../support/postgres-server.js';
import { postgresSuite } from '../../../support/postgres-suite.js';

describe.skipIf(isPostgresSkipped)('PostgreSQL store: one writer per namespace', () => {
  const suite = postgresSuite();
  let repos = 0;

  async function openAs(mode: 'write' | 'read', repo: string, ref = 'main'): Promise<PostgresCatalog> {
    const catalog = await PostgresCatalog.open({ connectionString: suite.server.connectionString, repo, ref, mode });
    return suite.track(catalog);
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
