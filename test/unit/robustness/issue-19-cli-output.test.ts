import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parsePositiveInt } from '../../../src/cli/index-commands.js';
import { eprintln, escapeControl, println, type CliIO } from '../../../src/cli/output.js';
import { ConfigError } from '../../../src/errors.js';

// Issue 19, finding 8: file names with newlines or escape sequences were printed raw and could forge a result line
// (or rewrite the terminal); `-k 1e300` was an unexpected error instead of exit 2.

function capture(): { io: CliIO; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { io: { stdout, stderr }, out: () => out, err: () => err };
}

describe('issue 19: human output escapes control characters', () => {
  it('a newline, carriage return, escape sequence, DEL, C1 control or bidi override never reaches the terminal raw', () => {
    expect(escapeControl('evil\n0.9999  src/forged.ts:1-2')).toBe('evil\\n0.9999  src/forged.ts:1-2');
    expect(escapeControl('a\r\u001b[2J\u0007\u007f\u009b\u202egnp.ts\tb')).toBe('a\\r\\e[2J\\x07\\x7f\\x9b\\u202egnp.ts\tb');
    expect(escapeControl('help\nline\u001b', { keepNewlines: true })).toBe('help\nline\\e');
  });

  it('println and eprintln write exactly one line', () => {
    const c = capture();
    println(c.io, '0.5000  a\nb.ts:1-2');
    eprintln(c.io, 'codescout: Root /x\u001b[31m does not exist');
    expect(c.out()).toBe('0.5000  a\\nb.ts:1-2\n');
    expect(c.err()).toBe('codescout: Root /x\\e[31m does not exist\n');
  });
});

describe('issue 19: -k 1e300', () => {
  it.each(['1e300', '1e3', '0x10', '1.0', '1001', '0', '-1', '9'.repeat(30)])('"%s" is a ConfigError naming the range', (value) => {
    let error: unknown;
    try {
      parsePositiveInt(value, '-k', 1000);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ option: '-k', exitCode: 2, message: `-k must be a whole number from 1 to 1000; got "${value}".` });
  });

  it('decimal digits within the range parse', () => {
    expect(['1', ' 7 ', '1000'].map((v) => parsePositiveInt(v, '-k', 1000))).toEqual([1, 7, 1000]);
    expect(parsePositiveInt('123456', '--max-cycles')).toBe(123456);
  });
});
