import { afterAll, afterEach, beforeAll } from 'vitest';
import type { PostgresCatalog } from '../../src/store/postgres/postgres-catalog.js';
import { startPostgres, type PostgresServer } from './postgres-server.js';

/** What {@link postgresSuite} gives a describe block. */
export interface PostgresSuite {
  /** The block's server (started before its first test). */
  readonly server: PostgresServer;
  /** Closes the catalog after the current test. */
  track(catalog: PostgresCatalog): PostgresCatalog;
}

/** One throwaway server for the surrounding describe block; catalogs handed to `track` are closed after each test. */
export function postgresSuite(): PostgresSuite {
  let server: PostgresServer | undefined;
  const open: PostgresCatalog[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server(): PostgresServer {
      if (!server) throw new Error('postgresSuite: the server starts in beforeAll; use it inside a test or hook');
      return server;
    },
    track(catalog) {
      open.push(catalog);
      return catalog;
    },
  };
}
