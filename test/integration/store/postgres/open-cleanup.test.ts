import { describe, expect, it } from 'vitest';
import { ConfigError, IndexLockedError, IndexMismatchError } from '../../../../src/errors.js';
import { LATEST_SCHEMA_VERSION } from '../../../../src/store/postgres/migrations/index.js';
import { PostgresCatalog, type PostgresCatalogOptions } from '../../../../src/store/postgres/postgres-catalog.js';
import { isPostgresSkipped, waitFor, withClient } from '../../../support/postgres-server.js';
import { postgresSuite } from '../../../support/postgres-suite.js';

describe.skipIf(isPostgresSkipped)('PostgreSQL store: a failed open closes every connection it opened', () => {
  const suite = postgresSuite();

  function options(mode: 'write' | 'read', repo: string, extra: Partial<PostgresCatalogOptions> = {}): PostgresCatalogOptions {
    return { connectionString: suite.server.connectionString, repo, ref: 'main', mode, ...extra };
  }

  async function failedOpen(o: PostgresCatalogOptions): Promise<unknown> {
    return PostgresCatalog.open(o).then(
      async (catalog) => {
        await catalog.close();
        throw new Error('open succeeded');
      },
      (error: unknown) => error,
    );
  }

  /** Connections the catalogs have open to the test database (the helpers' own have no application name). */
  async function codescoutConnections(): Promise<number> {
    return withClient(suite.server.connectionString, async (c) => (await c.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'codescout'",
    )).rows[0]!.n);
  }

  /** A closed connection's server process exits a moment after the client lets go: waits for the count to settle. */
  async function expectConnections(n: number): Promise<void> {
    let seen = -1;
    await waitFor(`${n} codescout connections`, async () => (seen = await codescoutConnections()) === n, 5000)
      .catch((error: unknown) => {
        throw new Error(`expected ${n} codescout connections, the server still has ${seen}`, { cause: error });
      });
  }

  it('a writer refused the lock after waiting closes its connection', async () => {
    const holder = suite.track(await PostgresCatalog.open(options('write', 'cleanup-locked')));
    await expectConnections(1);
    const refused = failedOpen(options('write', 'cleanup-locked', { lockWaitMs: 1500 }));
    // The waiting writer's connection is counted while it waits, so a leaked one would be seen afterwards.
    await expectConnections(2);
    expect(await refused).toBeInstanceOf(IndexLockedError);
    await expectConnections(1);
    await holder.close();
    await expectConnections(0);
  });

  it('a reader of a namespace that does not exist closes its pool', async () => {
    await (await PostgresCatalog.open(options('write', 'cleanup-exists'))).close();
    await expectConnections(0);
    const error = await failedOpen(options('read', 'cleanup-missing'));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/has no index of cleanup-missing@main\. Build it first/);
    await expectConnections(0);
  });

  it('a writer and a reader that meet a newer schema close their connections', async () => {
    await (await PostgresCatalog.open(options('write', 'cleanup-schema'))).close();
    const future = LATEST_SCHEMA_VERSION + 1;
    await withClient(suite.server.connectionString, (c) => c.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", [future]));
    try {
      await expectConnections(0);
      const writing = await failedOpen(options('write', 'cleanup-schema'));
      expect(writing).toBeInstanceOf(IndexMismatchError);
      expect((writing as Error).message).toMatch(new RegExp(`has codescout schema ${future}, newer than`));
      const reading = await failedOpen(options('read', 'cleanup-schema'));
      expect(reading).toBeInstanceOf(IndexMismatchError);
      await expectConnections(0);
    } finally {
      await withClient(suite.server.connectionString, (c) => c.query('DELETE FROM schema_migrations WHERE version = $1', [future]));
    }
  });
});
