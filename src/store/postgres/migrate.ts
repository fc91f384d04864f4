import { IndexMismatchError } from '../../errors.js';
import { inTransaction, sqlOver, type Queryable, type Sql } from './connection.js';
import { redactConnectionString } from './connection-string.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations/index.js';

/** First half of every codescout advisory lock key ('cods'); the second half is 0 for migrations, else a namespace id. */
export const ADVISORY_LOCK_CLASS = 0x636f6473;

const CREATE_LEDGER = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/** The highest applied migration, or null when the database has no codescout schema yet. */
export async function schemaVersion(sql: Sql): Promise<number | null> {
  const [ledger] = await sql.rows<{ name: string | null }>("SELECT to_regclass('schema_migrations')::text AS name");
  if (ledger?.name == null) return null;
  const [row] = await sql.rows<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return row?.version ?? 0;
}

/**
 * Applies the migrations the database lacks, oldest first, each in its own transaction and recorded in
 * `schema_migrations`, under a session advisory lock so two writers starting at once apply each step once.
 * Returns the versions applied now (empty when current). Throws IndexMismatchError when the database was migrated
 * by a newer codescout, StoreUnavailableError when the server cannot be reached or the role may not create tables.
 */
export async function migrate(client: Queryable, connectionString: string, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const sql = sqlOver(client, connectionString);
  await sql.count('SELECT pg_advisory_lock($1, 0)', [ADVISORY_LOCK_CLASS]);
  try {
    await sql.count(CREATE_LEDGER);
    const applied = new Set((await sql.rows<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    const newest = Math.max(0, ...applied);
    const known = migrations.at(-1)?.version ?? 0;
    if (newest > known) throw newerSchemaError(connectionString, newest, known);
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await inTransaction(client, connectionString, async (tx) => {
        await tx.count(migration.sql);
        await tx.count('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      });
      done.push(migration.version);
    }
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, 0)', [ADVISORY_LOCK_CLASS]).catch(() => undefined);
  }
}

/**
 * For readers, which never migrate (a replica cannot): throws IndexMismatchError unless the schema is exactly the
 * one this codescout knows.
 */
export async function assertSchemaCurrent(sql: Sql, connectionString: string): Promise<void> {
  const version = await schemaVersion(sql);
  if (version === LATEST_SCHEMA_VERSION) return;
  const target = redactConnectionString(connectionString);
  if (version !== null && version > LATEST_SCHEMA_VERSION) throw newerSchemaError(connectionString, version, LATEST_SCHEMA_VERSION);
  throw new IndexMismatchError(
    `PostgreSQL at ${target} has codescout schema ${version ?? 'none'}, this codescout reads ${LATEST_SCHEMA_VERSION}. ` +
      'Run codescout index against it once to migrate (writers migrate, readers do not).',
    target,
  );
}

function newerSchemaError(connectionString: string, found: number, known: number): IndexMismatchError {
  const target = redactConnectionString(connectionString);
  return new IndexMismatchError(
    `PostgreSQL at ${target} has codescout schema ${found}, newer than this codescout's ${known}. Upgrade codescout.`,
    target,
  );
}
