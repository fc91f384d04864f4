import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineLimitedInput, type OversizedLine } from '../../../src/mcp/line-limited-input.js';

// Issue 19, finding 8: one MCP message over 10 MiB stopped the server (the SDK's stdio buffer closes the transport).
// The input in front of the transport drops such a line while it streams by and passes every other line whole.

async function run(chunks: readonly (string | Buffer)[], maxLineBytes: number): Promise<{ lines: string[]; dropped: OversizedLine[] }> {
  const dropped: OversizedLine[] = [];
  const input = new LineLimitedInput({ maxLineBytes, onOversized: (line) => dropped.push(line) });
  const source = new PassThrough();
  const out: Buffer[] = [];
  input.on('data', (d: Buffer) => out.push(d));
  const ended = new Promise((resolve) => input.on('end', resolve));
  source.pipe(input);
  for (const c of chunks) source.write(c);
  source.end();
  await ended;
  return { lines: out.map((b) => b.toString()), dropped };
}

describe('issue 19: LineLimitedInput', () => {
  it('passes lines within the limit whole, one per chunk, however the input was split', async () => {
    const { lines, dropped } = await run(['{"a":', '1}\n{"b":2}\n{"c"', ':3}\r\n', '\n'], 16);
    expect(lines).toEqual(['{"a":1}\n', '{"b":2}\n', '{"c":3}\r\n']);
    expect(dropped).toEqual([]);
  });

  it('drops a line over the limit, finds its id at either end, and keeps going', async () => {
    const big = 'x'.repeat(50_000);
    const idLast = `{"method":"tools/call","params":{"q":"${big}"},"jsonrpc":"2.0","id":41}`;
    const idFirst = `{"jsonrpc":"2.0","id":"req-7","method":"tools/call","params":{"q":"${big}"}}`;
    const notification = `{"jsonrpc":"2.0","method":"notifications/x","params":{"q":"${big}"}}`;
    const chunked = (s: string): string[] => s.match(/[\s\S]{1,7000}/g)!;
    const { lines, dropped } = await run([...chunked(`${idLast}\n{"ok":1}\n${idFirst}\n`), ...chunked(`${notification}\n{"ok":2}\n`)], 1000);
    expect(lines).toEqual(['{"ok":1}\n', '{"ok":2}\n']);
    expect(dropped).toEqual([
      { bytes: idLast.length, id: 41 },
      { bytes: idFirst.length, id: 'req-7' },
      { bytes: notification.length, id: null },
    ]);
  });

  it('a last line without its newline is passed on (or dropped) at the end', async () => {
    expect((await run(['{"a":1}'], 16)).lines).toEqual(['{"a":1}\n']);
    expect((await run(['{"a":"long enough to drop","id":3}'], 16)).dropped).toEqual([{ bytes: 34, id: 3 }]);
  });
});
