/** Where the CLI writes: injectable so tests and the MCP server never touch the real process streams. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * Characters never written raw to a terminal: C0 controls but tab (a newline or carriage return in a file name
 * would forge an output line, an escape sequence would recolour or rewrite the screen), DEL, C1 controls, the
 * Unicode line and paragraph separators, and bidirectional overrides (which reorder what is shown).
 */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_KEEPING_NEWLINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\e' };

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/**
 * Text made safe for one line of human output: control characters become visible escapes (`\n`, `\e`, `\x07`,
 * `\u202e`). With `keepNewlines`, newlines stay (for text that is several lines by design, like help).
 */
export function escapeControl(text: string, o: { keepNewlines?: boolean } = {}): string {
  return text.replace(o.keepNewlines ? CONTROL_KEEPING_NEWLINES : CONTROL, escapeOne);
}

/** Writes one line to stdout; control characters in it (from file names, symbols, messages) are escaped. */
export function println(io: CliIO, line = ''): void {
  io.stdout.write(`${escapeControl(line)}\n`);
}

/** Writes one line to stderr; control characters in it are escaped. */
export function eprintln(io: CliIO, line = ''): void {
  io.stderr.write(`${escapeControl(line)}\n`);
}

/** Writes text that is several lines by design (a stack trace) to stderr, one escaped line each. */
export function eprintLines(io: CliIO, text: string): void {
  for (const line of text.split('\n')) eprintln(io, line);
}

/** Writes a value as one line of JSON to stdout (JSON escapes control characters itself). */
export function printJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}
