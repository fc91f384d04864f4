import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPool, sqlOver } from '../../../../src/store/postgres/connection.js';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { StoreUnavailableError, type StoreFailure } from '../../../../src/store/postgres/store-unavailable-error.js';
import { freePort, isPostgresSkipped, startPostgres, type PostgresServer } from '../../../support/postgres-server.js';

/** The error `open` fails with; asserts it is one typed line without the secret. */
async function openFailure(connectionString: string, secret: string, extra: { connectTimeoutMs?: number } = {}): Promise<StoreUnavailableError> {
  const error = await PostgresCatalog.open({ connectionString, repo: 'r', ref: 'main', mode: 'read', ...extra }).then(
    async (catalog) => {
      await catalog.close();
      throw new Error('open succeeded');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreUnavailableError);
  const typed = error as StoreUnavailableError;
  expect(typed.message).not.toContain(secret);
  expect(typed.message).not.toMatch(/\n/);
  expect(typed.target).not.toContain(secret);
  expect(typed.exitCode).toBe(8);
  return typed;
}

describe.skipIf(isPostgresSkipped)('PostgreSQL store: connection failures', () => {
  let server: PostgresServer;
  let silent: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startPostgres();
    // Accepts TCP connections and never answers: a server behind a black hole.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    await server?.stop();
  });

  const failureOf = (e: StoreUnavailableError): StoreFailure => e.failure;

  it('a wrong password: auth failure, the password shown as ***', async () => {
    const wrong = 'Wr0ng-hunter2-secret';
    const url = `postgres://${server.user}:${wrong}@127.0.0.1:${server.port}/${server.database}`;
    const error = await openFailure(url, wrong);
    expect(failureOf(error)).toBe('auth');
    expect(error.message).toBe(
      `PostgreSQL at postgres://${server.user}:***@127.0.0.1:${server.port}/${server.database} refused the user or password ` +
        `(password authentication failed for user "${server.user}"). Check the user and password of the connection string (the password is not printed).`,
    );
  });

  it('a closed port: connection refused', async () => {
    const port = await freePort();
    const error = await openFailure(`postgres://${server.user}:${server.password}@127.0.0.1:${port}/${server.database}`, server.password);
    expect(failureOf(error)).toBe('refused');
    expect(error.message).toMatch(new RegExp(`^PostgreSQL at postgres://${server.user}:\\*\\*\\*@127\\.0\\.0\\.1:${port}/${server.database} refused the connection \\(.*ECONNREFUSED.*\\)\\. Check that the server runs`));
  });

  it('a server that never answers: a timeout after connectTimeoutMs', async () => {
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const started = Date.now();
    const error = await openFailure(`postgresql://u:pw-in-key@127.0.0.1:${port}/db`, 'pw-in-key', { connectTimeoutMs: 300 });
    expect(failureOf(error)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('TLS settings of the connection string reach the driver: sslmode=require against a server without TLS', async () => {
    const error = await openFailure(`${server.connectionString}?sslmode=require`, server.password);
    expect(failureOf(error)).toBe('tls');
    expect(error.message).toContain('does not support SSL');
    expect(error.message).toContain('?sslmode=require');
  });

  it('a statement past the statement timeout: a typed timeout', async () => {
    const pool = openPool({ connectionString: server.connectionString, statementTimeoutMs: 200 });
    try {
      const error = await sqlOver(pool, server.connectionString).rows('SELECT pg_sleep(5)').then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).failure).toBe('timeout');
      expect((error as StoreUnavailableError).message).not.toContain(server.password);
    } finally {
      await pool.end();
    }
  });

  it('a database that does not exist', async () => {
    const error = await openFailure(server.connectionString.replace(/\/codescout$/, '/nowhere'), server.password);
    expect(failureOf(error)).toBe('no-database');
  });
});
