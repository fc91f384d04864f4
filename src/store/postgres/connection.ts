import pg from 'pg';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { CodeIndexError } from '../../errors.js';
import { passwordOf, REDACTED, redactConnectionString } from './connection-string.js';
import { StoreUnavailableError, type StoreFailure } from './store-unavailable-error.js';

/** Defaults of the connection settings, units in the names. */
export const CONNECTION_DEFAULTS = Object.freeze({
  connectTimeoutMs: 10_000,
  statementTimeoutMs: 60_000,
  /** Pooled reader connections per catalog; a writer holds one more for its lock and writes. */
  poolSize: 4,
});

/** How to reach the server. TLS settings in the connection string (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`) apply as given. */
export interface ConnectionSettings {
  /** `postgres://user:password@host:port/database?sslmode=...` or the libpq key/value form. */
  readonly connectionString: string;
  /** Fails a connection attempt after this long, in ms. */
  readonly connectTimeoutMs?: number;
  /** Server-side `statement_timeout` of every statement, in ms (a client-side timer adds a grace second for dead networks). */
  readonly statementTimeoutMs?: number;
  readonly poolSize?: number;
  /** Extra TLS options, merged over what the connection string says (e.g. a CA read from elsewhere). */
  readonly tls?: TlsOptions;
}

/** Anything that runs a query: a pool, a pooled client or a dedicated client. */
export type Queryable = Pick<pg.ClientBase, 'query'>;

/** Runs SQL with errors mapped to one-line typed errors (see {@link toStoreError}). */
export interface Sql {
  rows<R extends pg.QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R[]>;
  /** Rows changed (or returned) by the statement. */
  count(text: string, values?: readonly unknown[]): Promise<number>;
}

const INT8_OID = 20;

// Row ids and counts are bigint in PostgreSQL; codescout's ids stay below 2^53, so they are read as numbers.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** The pg client configuration for `settings`. */
export function clientConfig(settings: ConnectionSettings): pg.ClientConfig {
  const statementTimeoutMs = settings.statementTimeoutMs ?? CONNECTION_DEFAULTS.statementTimeoutMs;
  const config: pg.ClientConfig = {
    connectionString: settings.connectionString,
    connectionTimeoutMillis: settings.connectTimeoutMs ?? CONNECTION_DEFAULTS.connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 1000,
    keepAlive: true,
    application_name: 'codescout',
    types,
  };
  if (settings.tls !== undefined) config.ssl = settings.tls;
  return config;
}

/** A pool for readers. Idle-connection errors are kept for the next query to meet, never thrown from the event. */
export function openPool(settings: ConnectionSettings): pg.Pool {
  const pool = new pg.Pool({ ...clientConfig(settings), max: settings.poolSize ?? CONNECTION_DEFAULTS.poolSize });
  // A server restart kills idle pooled connections; the pool drops them and the next query reconnects or fails typed.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * A connected dedicated client (the writer's). A connection that drops emits 'error' even between statements (a
 * writer waiting for its lock, a server restart), which would crash the process without a listener; the error is
 * kept for the next statement, which fails as 'lost'. Throws StoreUnavailableError when the server cannot be reached.
 */
export async function connectClient(settings: ConnectionSettings): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(settings));
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw toStoreError(error, settings.connectionString);
  }
  return client;
}

/** `Sql` over a pool or client, mapping errors for `connectionString`. */
export function sqlOver(db: Queryable, connectionString: string): Sql {
  const run = async (text: string, values?: readonly unknown[]): Promise<pg.QueryResult> => {
    try {
      return await db.query(text, values as unknown[] | undefined);
    } catch (error) {
      throw toStoreError(error, connectionString);
    }
  };
  return {
    rows: async <R extends pg.QueryResultRow>(text: string, values?: readonly unknown[]) => (await run(text, values)).rows as R[],
    count: async (text, values) => (await run(text, values)).rowCount ?? 0,
  };
}

/** Runs `fn` in one transaction on `client` (BEGIN ... COMMIT, ROLLBACK when it throws). */
export async function inTransaction<T>(client: Queryable, connectionString: string, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const sql = sqlOver(client, connectionString);
  await sql.count('BEGIN');
  try {
    const result = await fn(sql);
    await sql.count('COMMIT');
    return result;
  } catch (error) {
    // A rollback on a dead connection fails too; the first error is the one worth reporting.
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

interface DriverError { code?: string; message?: string }

/** SQLSTATE or Node error code -> failure kind and the hint to act on. */
function classify(error: DriverError): { failure: StoreFailure; what: string; next: string } | undefined {
  const code = error.code ?? '';
  const message = error.message ?? '';
  if (code === 'ECONNREFUSED') return { failure: 'refused', what: 'refused the connection', next: 'Check that the server runs and the host and port are right.' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { failure: 'unknown-host', what: 'has a host name that does not resolve', next: 'Check the host in the connection string.' };
  if (code === 'ETIMEDOUT' || /timeout expired|connection timeout/i.test(message)) return { failure: 'timeout', what: 'did not answer in time', next: 'Check the network path (firewall, VPN) or raise the connect timeout.' };
  if (code === '57014') return { failure: 'timeout', what: 'cancelled a statement that ran past the statement timeout', next: 'Raise the statement timeout or check the server load.' };
  if (/query read timeout/i.test(message)) return { failure: 'timeout', what: 'stopped answering a statement', next: 'Check the network path and the server.' };
  if (code === '28P01' || code === '28000') return { failure: 'auth', what: 'refused the user or password', next: 'Check the user and password of the connection string (the password is not printed).' };
  if (code === '3D000') return { failure: 'no-database', what: 'has no such database', next: 'Create it (CREATE DATABASE) or fix the database name.' };
  if (/ssl|tls|certificate/i.test(message) || code.startsWith('ERR_TLS') || /CERT|SELF_SIGNED/.test(code)) return { failure: 'tls', what: 'failed the TLS handshake', next: 'Check sslmode, sslrootcert, sslcert and sslkey in the connection string.' };
  if (code === '42501') return { failure: 'permission', what: 'denied a privilege codescout needs', next: 'Grant the role CREATE on the database (or have an administrator run CREATE EXTENSION vector).' };
  if (code === '40P01' || code === '40001') return { failure: 'conflict', what: 'aborted a write that conflicted with another session', next: 'Run the command again.' };
  if (code === '25006') return { failure: 'read-only', what: 'is read-only (a standby)', next: 'Point writers (codescout index) at the primary; replicas serve readers only.' };
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === 'ECONNRESET' || code === 'EPIPE'
    || /Connection terminated|Client has encountered a connection error|not queryable/i.test(message)) {
    return { failure: 'lost', what: 'dropped the connection', next: 'Check that the server is up and run the command again.' };
  }
  return undefined;
}

/**
 * Maps a driver or network error to StoreUnavailableError with a one-line message naming the server (password
 * redacted everywhere, also inside the driver's own text) and what to check. CodeIndexErrors and errors that are
 * not about reaching or using the server (a bug in a statement) are returned as they are.
 */
export function toStoreError(error: unknown, connectionString: string): Error {
  if (error instanceof CodeIndexError) return error;
  if (!(error instanceof Error)) return new Error(String(error));
  const kind = classify(error as DriverError);
  if (kind === undefined) return error;
  const target = redactConnectionString(connectionString);
  const password = passwordOf(connectionString);
  let detail = (error.message || (error as DriverError).code || 'no detail').replace(/\s+/g, ' ').trim();
  if (password) detail = detail.replaceAll(password, REDACTED);
  return new StoreUnavailableError(`PostgreSQL at ${target} ${kind.what} (${detail}). ${kind.next}`, target, kind.failure, { cause: error });
}
