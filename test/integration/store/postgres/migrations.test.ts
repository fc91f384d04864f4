import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexMismatchError } from '../../../../src/errors.js';
import { connectClient } from '../../../../src/store/postgres/connection.js';
import { migrate } from '../../../../src/store/postgres/migrate.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../../../src/store/postgres/migrations/index.js';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { isPostgresSkipped, startPostgres, withClient, type PostgresServer } from '../../../support/postgres-server.js';

describe.skipIf(isPostgresSkipped)('PostgreSQL store: schema migrations', () => {
  let server: PostgresServer;
  let databases = 0;

  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A fresh empty database on the test server, by connection string. */
  async function freshDatabase(): Promise<string> {
    const name = `migrations_${++databases}`;
    await withClient(server.connectionString, (c) => c.query(`CREATE DATABASE ${name}`));
    return server.connectionString.replace(/\/codescout$/, `/${name}`);
  }

  const ALL = [{ version: 1, name: 'initial' }, { version: 2, name: 'branch-bases' }, { version: 3, name: 'namespace-globs' }, { version: 4, name: 'namespace-chunker' }];
  const VERSIONS = ALL.map((m) => m.version);
  const NEXT = ALL.length + 1;

  async function ledger(connectionString: string): Promise<Array<{ version: number; name: string }>> {
    return withClient(connectionString, async (c) => (await c.query('SELECT version, name FROM schema_migrations ORDER BY version')).rows);
  }

  it('applies every migration once on an empty database and nothing the second time', async () => {
    const url = await freshDatabase();
    const client = await connectClient({ connectionString: url });
    try {
      expect(await migrate(client, url)).toEqual(VERSIONS);
      expect(await migrate(client, url)).toEqual([]);
    } finally {
      await client.end();
    }
    expect(await ledger(url)).toEqual(ALL);
    expect(LATEST_SCHEMA_VERSION).toBe(4);
    const tables = await withClient(url, async (c) => (await c.query(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    )).rows.map((r: { tablename: string }) => r.tablename));
    expect(tables).toEqual(['chunks', 'embeddings', 'files', 'namespaces', 'pending_texts', 'schema_migrations', 'writer_locks']);
  });

  it('applies a new migration once, after the ones already applied', async () => {
    const url = await freshDatabase();
    const client = await connectClient({ connectionString: url });
    const next = [...MIGRATIONS, { version: NEXT, name: 'probe', sql: 'CREATE TABLE probe (id integer); INSERT INTO probe VALUES (7);' }];
    try {
      expect(await migrate(client, url)).toEqual(VERSIONS);
      expect(await migrate(client, url, next)).toEqual([NEXT]);
      expect(await migrate(client, url, next)).toEqual([]);
    } finally {
      await client.end();
    }
    expect(await ledger(url)).toEqual([...ALL, { version: NEXT, name: 'probe' }]);
    expect(await withClient(url, async (c) => (await c.query('SELECT id FROM probe')).rows)).toEqual([{ id: 7 }]);
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const url = await freshDatabase();
    const client = await connectClient({ connectionString: url });
    const broken = [...MIGRATIONS, { version: NEXT, name: 'broken', sql: 'CREATE TABLE half (id integer); SELECT no_such_function();' }];
    try {
      await expect(migrate(client, url, broken)).rejects.toThrow(/no_such_function/);
    } finally {
      await client.end();
    }
    expect(await ledger(url)).toEqual(ALL);
    expect(await withClient(url, async (c) => (await c.query("SELECT to_regclass('half') AS t")).rows)).toEqual([{ t: null }]);
  });

  it('lets two writers that start at once apply each migration exactly once', async () => {
    const url = await freshDatabase();
    const clients = await Promise.all([connectClient({ connectionString: url }), connectClient({ connectionString: url })]);
    try {
      const applied = await Promise.all(clients.map((c) => migrate(c, url)));
      expect(applied.flat()).toEqual(VERSIONS);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    expect(await ledger(url)).toEqual(ALL);
  });

  it('refuses a database migrated by a newer codescout, for writers and readers', async () => {
    const url = await freshDatabase();
    const writer = await PostgresCatalog.open({ connectionString: url, repo: 'r', ref: 'main', mode: 'write' });
    await writer.close();
    await withClient(url, (c) => c.query("INSERT INTO schema_migrations (version, name) VALUES (99, 'future')"));
    const asWriter = PostgresCatalog.open({ connectionString: url, repo: 'r', ref: 'main', mode: 'write' });
    await expect(asWriter).rejects.toThrow(IndexMismatchError);
    await expect(asWriter).rejects.toThrow(/schema 99, newer than this codescout's 4\. Upgrade codescout/);
    await expect(PostgresCatalog.open({ connectionString: url, repo: 'r', ref: 'main', mode: 'read' })).rejects.toThrow(/schema 99/);
  });

  it('tells a reader of an unmigrated database to run a writer first', async () => {
    const url = await freshDatabase();
    const open = PostgresCatalog.open({ connectionString: url, repo: 'r', ref: 'main', mode: 'read' });
    await expect(open).rejects.toThrow(IndexMismatchError);
    await expect(open).rejects.toThrow(/has codescout schema none, this codescout reads 4\. Run codescout index against it once/);
    expect(await withClient(url, async (c) => (await c.query("SELECT to_regclass('schema_migrations') AS t")).rows)).toEqual([{ t: null }]);
  });

  it('upgrades a database written at schema 1: its namespaces stay, as whole indexes (no base)', async () => {
    const url = await freshDatabase();
    const client = await connectClient({ connectionString: url });
    try {
      expect(await migrate(client, url, MIGRATIONS.slice(0, 1))).toEqual([1]);
      await client.query("INSERT INTO namespaces (repo, ref, model) VALUES ('acme/shop', 'main', 'm'), ('acme/shop', 'dev', 'm')");
      expect(await migrate(client, url)).toEqual([2, 3, 4]);
    } finally {
      await client.end();
    }
    const reader = await PostgresCatalog.open({ connectionString: url, repo: 'acme/shop', ref: 'dev', mode: 'read' });
    try {
      expect(await reader.baseRef()).toBeNull();
    } finally {
      await reader.close();
    }
    expect(await withClient(url, async (c) => (await c.query('SELECT repo, ref, base_ref FROM namespaces ORDER BY id')).rows)).toEqual([
      { repo: 'acme/shop', ref: 'main', base_ref: null }, { repo: 'acme/shop', ref: 'dev', base_ref: null },
    ]);
  });

  it('upgrades a database written at schema 2: its namespaces stay, with no globs recorded', async () => {
    const url = await freshDatabase();
    const client = await connectClient({ connectionString: url });
    try {
      expect(await migrate(client, url, MIGRATIONS.slice(0, 2))).toEqual([1, 2]);
      await client.query("INSERT INTO namespaces (repo, ref, model, base_ref) VALUES ('acme/shop', 'main', 'm', NULL), ('acme/shop', 'dev', 'm', 'main')");
      expect(await migrate(client, url)).toEqual([3, 4]);
    } finally {
      await client.end();
    }
    const reader = await PostgresCatalog.open({ connectionString: url, repo: 'acme/shop', ref: 'dev', mode: 'read' });
    try {
      expect(await reader.baseRef()).toBe('main');
      expect(await reader.globs()).toBeNull();
      expect(await reader.chunkerVersion()).toBeNull();
    } finally {
      await reader.close();
    }
  });
});
