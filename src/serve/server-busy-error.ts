import { CodeIndexError } from '../errors.js';

/** Another process already answers queries for this index (one server per index). Exit code 5, like a held write lock. */
export class ServerBusyError extends CodeIndexError {
  override readonly exitCode = 5;
  constructor(message: string, readonly socketPath: string, readonly pid: number | null) {
    super(message);
  }
}
