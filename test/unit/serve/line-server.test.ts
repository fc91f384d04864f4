import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exchangeLine } from '../../../src/serve/line-client.js';
import { listenForLines, type LineServer } from '../../../src/serve/line-server.js';

describe.skipIf(process.platform === 'win32')('line server and client over a real Unix socket', () => {
  let dir: string;
  let server: LineServer | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'codescout-line-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('survives a client that goes away in the middle of a long reply, and answers the next one', async () => {
    const big = 'x'.repeat(4 << 20);
    server = await listenForLines({ socketPath: path.join(dir, 's.sock'), maxLineBytes: 1000, answer: async (line) => (line === 'big' ? big : `echo ${line}`) });
    await new Promise<void>((resolve) => {
      const socket = net.connect(server!.socketPath, () => socket.write('big\n'));
      socket.once('data', () => {
        socket.destroy(); // leave after the first chunk of a 4 MB reply
        setTimeout(resolve, 200);
      });
    });
    expect(await exchangeLine(server.socketPath, 'again', { connectMs: 1000, replyMs: 5000 })).toBe('echo again');
  });

  it('drops a client that connects and never sends its request, so close() does not wait for it', async () => {
    server = await listenForLines({ socketPath: path.join(dir, 's.sock'), maxLineBytes: 1000, answer: async (line) => line, requestTimeoutMs: 60_000 });
    const idle = net.connect(server.socketPath);
    await new Promise<void>((resolve) => idle.once('connect', () => resolve()));
    const started = performance.now();
    await server.close();
    server = undefined;
    expect(performance.now() - started).toBeLessThan(2000);
    idle.destroy();
  });

  it('still counts a connection made while the event loop was blocked past the connect timeout', async () => {
    server = await listenForLines({ socketPath: path.join(dir, 's.sock'), maxLineBytes: 1000, answer: async (line) => `echo ${line}` });
    const reply = exchangeLine(server.socketPath, 'hi', { connectMs: 50, replyMs: 5000 });
    const until = performance.now() + 150;
    while (performance.now() < until) {
      // a busy machine: the timer is due before the connection is reported
    }
    expect(await reply).toBe('echo hi');
  });
});
