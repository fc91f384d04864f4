import net from 'node:net';

/** Timeouts of {@link exchangeLine}, in ms. */
export interface ExchangeTimeouts {
  /** Longest wait for the connection: a server that does not accept this fast is treated as absent. */
  readonly connectMs: number;
  /** Longest wait for the reply once connected (a query loop can take seconds on a large index). */
  readonly replyMs: number;
}

/**
 * Sends one line over a Unix socket (or named pipe) and resolves with the one line the server replies.
 * @throws the connection error (`ENOENT`, `ECONNREFUSED`, ...), or an Error with code `ETIMEDOUT` when a timeout
 * passes, or `ECONNRESET` when the server closes before a full line.
 */
export function exchangeLine(socketPath: string, line: string, timeouts: ExchangeTimeouts): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const parts: Buffer[] = [];
    let settled = false;
    const settle = (error: Error | null, value?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(value!);
    };
    let connected = false;
    // The timer phase runs before I/O: after a stall of the event loop (a busy machine, GC) the timer would fire
    // before a connection that is already made is reported. Let pending I/O through first.
    let timer = setTimeout(
      () => setImmediate(() => {
        if (!connected) settle(codedError('ETIMEDOUT', `no connection within ${timeouts.connectMs} ms`));
      }),
      timeouts.connectMs,
    );
    socket.once('connect', () => {
      connected = true;
      clearTimeout(timer);
      timer = setTimeout(() => settle(codedError('ETIMEDOUT', `no reply within ${timeouts.replyMs} ms`)), timeouts.replyMs);
      socket.write(`${line}\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      const newline = chunk.indexOf(0x0a);
      parts.push(newline < 0 ? chunk : chunk.subarray(0, newline));
      if (newline >= 0) settle(null, Buffer.concat(parts).toString('utf8'));
    });
    socket.once('end', () => settle(codedError('ECONNRESET', 'the server closed the connection before replying')));
    socket.once('error', (error) => settle(error));
  });
}

function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
