import { chmod, lstat, unlink } from 'node:fs/promises';
import net from 'node:net';

/** A listening socket that answers each connection's one request line with one reply line. */
export interface LineServer {
  readonly socketPath: string;
  /** Stops listening, waits for the answers in flight, and removes the socket file when it is still this server's. */
  close(): Promise<void>;
}

/** Options of {@link listenForLines}. */
export interface LineServerOptions {
  readonly socketPath: string;
  /** Computes the reply line (without its newline) for a request line; never rejects. */
  readonly answer: (line: string) => Promise<string>;
  /** Longest request line, in bytes: a longer one closes the connection unanswered. */
  readonly maxLineBytes: number;
  /** Longest wait for the request line once connected, in ms (default 5000): a silent client is dropped. */
  readonly requestTimeoutMs?: number;
}

/**
 * Listens on a Unix socket (a named pipe on Windows) made readable and writable by this user only (0600).
 * @throws the listen error as Node gives it (`EADDRINUSE` when the path is taken, `EACCES`, ...).
 */
export async function listenForLines(o: LineServerOptions): Promise<LineServer> {
  const inFlight = new Set<Promise<void>>();
  const reading = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    // For the socket's whole life: a client that goes away mid-reply (ECONNRESET, EPIPE) must not take the
    // process down with an unhandled 'error' event; there is nothing left to tell it.
    socket.on('error', () => socket.destroy());
    reading.add(socket);
    const done = serveConnection(socket, { ...o, onRequest: () => reading.delete(socket) }).catch(() => {
      socket.destroy();
    });
    inFlight.add(done);
    void done.finally(() => {
      reading.delete(socket);
      inFlight.delete(done);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const isPipe = process.platform === 'win32';
  // The index folder is already 0700; the socket's own mode keeps it private wherever it lives.
  if (!isPipe) await chmod(o.socketPath, 0o600);
  const identity = isPipe ? null : await lstat(o.socketPath);
  return {
    socketPath: o.socketPath,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A connection that has not sent its request yet would hold close() forever: it gets no answer.
      for (const socket of reading) socket.destroy();
      await closed;
      await Promise.all(inFlight);
      if (identity === null) return;
      // Another server may have replaced a socket it judged stale: only our own file is removed.
      const now = await lstat(o.socketPath).catch(() => null);
      if (now !== null && now.ino === identity.ino && now.dev === identity.dev) await unlink(o.socketPath);
    },
  };
}

/** Reads one line (up to the limit), writes the answer and a newline, and ends the connection. */
async function serveConnection(socket: net.Socket, o: LineServerOptions & { onRequest: () => void }): Promise<void> {
  const line = await readLine(socket, o.maxLineBytes, o.requestTimeoutMs ?? 5000);
  if (line === null) {
    socket.destroy();
    return;
  }
  o.onRequest();
  const reply = await o.answer(line);
  await new Promise<void>((resolve) => socket.end(`${reply}\n`, () => resolve()));
}

/**
 * The first line a socket sends, or null when it closes first, sends more than `maxBytes` without a newline, or
 * sends no full line within `timeoutMs`.
 */
function readLine(socket: net.Socket, maxBytes: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let bytes = 0;
    const timer = setTimeout(() => finish(null), timeoutMs);
    const finish = (value: string | null): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onEnd);
      resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      const newline = chunk.indexOf(0x0a);
      parts.push(newline < 0 ? chunk : chunk.subarray(0, newline));
      bytes += newline < 0 ? chunk.length : newline;
      if (bytes > maxBytes) finish(null);
      else if (newline >= 0) finish(Buffer.concat(parts).toString('utf8'));
    };
    const onEnd = (): void => finish(null);
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('close', onEnd);
    socket.on('error', onEnd);
  });
}
