import { CodeIndexError } from '../errors.js';

/**
 * A user error (a bad option, an unknown model, a damaged index) that the query server met while running a command
 * for the CLI: the CLI reports it exactly as the same error met in-process, with the same message and exit code.
 */
export class ServedUserError extends CodeIndexError {
  override readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}
