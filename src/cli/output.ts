/** Where the CLI writes: injectable so tests and the MCP server never touch the real process streams. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Writes one line to stdout. */
export function println(io: CliIO, line = ''): void {
  io.stdout.write(`${line}\n`);
}

/** Writes one line to stderr. */
export function eprintln(io: CliIO, line = ''): void {
  io.stderr.write(`${line}\n`);
}

/** Writes a value as one line of JSON to stdout. */
export function printJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}
