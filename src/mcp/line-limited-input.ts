import { Transform, type TransformCallback } from 'node:stream';

/** Largest MCP message (one line of JSON-RPC on stdin) the server reads, in bytes: 10 MiB, the SDK's own buffer. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Bytes kept from each end of a line to find the request id of a line that is dropped. */
const ID_WINDOW_BYTES = 4096;

/** A line that was dropped for its size. */
export interface OversizedLine {
  /** Its length in bytes, without the newline. */
  readonly bytes: number;
  /** The JSON-RPC id of the request, when its first or last bytes name one; null otherwise (or a notification). */
  readonly id: string | number | null;
}

/** Options of {@link LineLimitedInput}. */
export interface LineLimitedInputOptions {
  /** Longest line passed on, in bytes (default {@link MAX_MESSAGE_BYTES}). */
  readonly maxLineBytes?: number;
  /** Told about every dropped line, once it has ended. */
  readonly onOversized: (line: OversizedLine) => void;
}

// `{"jsonrpc":"2.0","id":7,...` (id first) and `...,"id":7}` (id last: how the SDK clients serialise a request).
const ID_AT_START = /^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*(-?\d+|"[^"\\]*")/;
const ID_AT_END = /,\s*"id"\s*:\s*(-?\d+|"[^"\\]*")\s*\}\s*$/;

function requestIdOf(head: string, tail: string): string | number | null {
  const m = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
  return m === null ? null : (JSON.parse(m[1]!) as string | number);
}

/**
 * Passes newline-delimited messages through whole, one line per chunk, and drops any line longer than the limit
 * while it streams by, keeping only a few KiB of it. The MCP SDK's stdio transport closes the server when its
 * buffer passes 10 MiB, so one oversized message used to stop the server (exit 0); in front of it, the message is
 * refused and the server keeps serving. Lines are assembled once (no copy per chunk).
 */
export class LineLimitedInput extends Transform {
  private readonly maxLineBytes: number;
  private readonly onOversized: (line: OversizedLine) => void;
  private parts: Buffer[] = [];
  private size = 0;
  private dropping = false;
  private head = '';
  private tail: Buffer = Buffer.alloc(0);

  constructor(options: LineLimitedInputOptions) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? MAX_MESSAGE_BYTES;
    this.onOversized = options.onOversized;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.addPiece(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.size > 0 || this.dropping) this.endLine(); // a last message without its newline
    callback();
  }

  private addPiece(piece: Buffer): void {
    if (piece.length === 0) return;
    if (!this.dropping && this.size + piece.length > this.maxLineBytes) {
      this.dropping = true;
      this.head = Buffer.concat([...this.parts, piece.subarray(0, ID_WINDOW_BYTES)]).subarray(0, ID_WINDOW_BYTES).toString('utf8');
      this.parts = [];
    }
    this.size += piece.length;
    if (!this.dropping) {
      this.parts.push(piece);
      return;
    }
    const kept = Buffer.concat([this.tail, piece.subarray(Math.max(0, piece.length - ID_WINDOW_BYTES))]);
    this.tail = kept.subarray(Math.max(0, kept.length - ID_WINDOW_BYTES));
  }

  private endLine(): void {
    if (this.dropping) {
      this.onOversized({ bytes: this.size, id: requestIdOf(this.head, this.tail.toString('utf8')) });
    } else if (this.size > 0) {
      this.push(Buffer.concat([...this.parts, Buffer.from('\n')]));
    }
    this.parts = [];
    this.size = 0;
    this.dropping = false;
    this.head = '';
    this.tail = Buffer.alloc(0);
  }
}
