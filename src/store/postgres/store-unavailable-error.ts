import { CodeIndexError } from '../../errors.js';

/** What went wrong between codescout and the database server. */
export type StoreFailure =
  | 'refused' | 'unknown-host' | 'timeout' | 'auth' | 'no-database' | 'tls' | 'lost' | 'permission' | 'read-only' | 'conflict';

/**
 * The PostgreSQL store could not be reached or used: connection refused, timed out, authentication or TLS failed,
 * the connection dropped, or the role lacks a privilege. The message is one line, names the server by its
 * connection string with the password redacted, and says what to check next.
 */
export class StoreUnavailableError extends CodeIndexError {
  override readonly exitCode = 8;
  constructor(
    message: string,
    /** The connection string with its password redacted. */
    readonly target: string,
    readonly failure: StoreFailure,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
