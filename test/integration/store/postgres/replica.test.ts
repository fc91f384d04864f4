import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { StoreUnavailableError } from '../../../../src/store/postgres/store-unavailable-error.js';
import { chunk, fileInput, openWriter, unit } from '../../../support/postgres-fixtures.js';
import { isPostgresSkipped, startPostgres, startReplica, waitFor, withClient, type PostgresServer } from '../../../support/postgres-server.js';

describe.skipIf(isPostgresSkipped)('PostgreSQL store: a streaming read replica', () => {
  let primary: PostgresServer;
  let replica: PostgresServer;
  let writer: PostgresCatalog;

  beforeAll(async () => {
    primary = await startPostgres();
    writer = await openWriter(primary.connectionString, 'main', 'replicated');
    replica = await startReplica(primary);
  });
  afterAll(async () => {
    await writer?.close();
    await replica?.stop();
    await primary?.stop();
  });

  /** Waits until the replica has replayed everything the primary has written so far (the insert position: with
   * synchronous_commit off a commit can sit in WAL buffers past the write position). */
  async function caughtUp(): Promise<void> {
    const lsn = await withClient(primary.connectionString, async (c) => (await c.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn as string);
    await waitFor(`the replica to replay ${lsn}`, () => withClient(replica.connectionString, async (c) => (await c.query(
      'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn],
    )).rows[0].done as boolean));
  }

  it('answers readers with the rows the primary committed, the same as the primary does', async () => {
    await writer.replaceFile(fileInput('src/replicated.ts', [
      { chunk: chunk('replicateRows', 'export function replicateRows() {}'), vector: unit(1, 0, 0, 0) },
      { chunk: chunk('standbyReader', 'export function standbyReader() {}', 3), vector: unit(0, 1, 0, 0) },
    ]));
    await caughtUp();
    const onReplica = await PostgresCatalog.open({ connectionString: replica.connectionString, repo: 'replicated', ref: 'main', mode: 'read' });
    const onPrimary = await PostgresCatalog.open({ connectionString: primary.connectionString, repo: 'replicated', ref: 'main', mode: 'read' });
    try {
      expect(await withClient(replica.connectionString, async (c) => (await c.query('SELECT pg_is_in_recovery() AS r')).rows[0].r)).toBe(true);
      expect(await onReplica.listFiles()).toEqual(await onPrimary.listFiles());
      expect((await onReplica.listFiles()).map((f) => f.path)).toEqual(['src/replicated.ts']);
      const lexical = await onReplica.lexicalSearch('standby reader', { k: 5 });
      expect(lexical).toEqual(await onPrimary.lexicalSearch('standby reader', { k: 5 }));
      expect((await onReplica.getChunks(lexical.map((h) => h.rowId))).map((r) => r.symbol)).toEqual(['standbyReader']);
      const near = await onReplica.nearestChunks(unit(0.1, 1, 0, 0), { k: 1 });
      expect(near).toEqual(await onPrimary.nearestChunks(unit(0.1, 1, 0, 0), { k: 1 }));
      expect((await onReplica.getChunks(near.map((h) => h.rowId))).map((r) => r.symbol)).toEqual(['standbyReader']);
      expect(await onReplica.integrityCheck()).toEqual([]);
    } finally {
      await onReplica.close();
      await onPrimary.close();
    }
  });

  it('keeps answering readers while the primary is written, and catches up with every write', async () => {
    const reader = await PostgresCatalog.open({ connectionString: replica.connectionString, repo: 'replicated', ref: 'main', mode: 'read' });
    try {
      const writes = (async () => {
        for (let i = 0; i < 20; i++) {
          await writer.replaceFile(fileInput(`src/live-${i}.ts`, [{ chunk: chunk(`live${i}`, `export const live${i} = ${i};`), vector: unit(1, i, 0, 0) }]));
        }
      })();
      const reads: number[] = [];
      const reading = (async () => {
        for (let i = 0; i < 20; i++) reads.push((await reader.listFiles()).length);
      })();
      await Promise.all([writes, reading]);
      // Every read answered, and what a reader sees only grows (1 file before the writes, 21 after).
      expect(reads).toHaveLength(20);
      expect(reads.every((n, i) => n >= 1 && n <= 21 && (i === 0 || n >= reads[i - 1]!))).toBe(true);
      await caughtUp();
      expect((await reader.listFiles()).length).toBe(21);
      expect(await reader.generation()).toBe(await writer.generation());
    } finally {
      await reader.close();
    }
  });

  it('refuses a writer on the replica with a typed one-line error', async () => {
    const error = await PostgresCatalog.open({ connectionString: replica.connectionString, repo: 'replicated', ref: 'main', mode: 'write' })
      .then(async (c) => { await c.close(); return undefined; }, (e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).failure).toBe('read-only');
    expect((error as StoreUnavailableError).message).not.toContain(replica.password);
  });
});
