import { createHash } from 'node:crypto';
import { createReadStream, closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** File name of the serialized HNSW graph inside an index directory. */
export const HNSW_FILE = 'vectors.hnsw';
/** File name of its meta data (JSON), written after the graph. */
export const HNSW_META_FILE = 'vectors.json';

/** What `vectors.json` records about `vectors.hnsw`; the checksum ties the two together. */
export interface HnswMeta {
  readonly formatVersion: 1;
  readonly dimension: number;
  /** Catalog generation the saved graph reflects. */
  readonly generation: number;
  /** Highest label ever stored. */
  readonly maxRowId: number;
  /** Stored elements, deleted ones included. */
  readonly count: number;
  /** Number of elements marked deleted. */
  readonly deleted: number;
  /** Labels marked deleted (hnswlib cannot list them). */
  readonly deletedRowIds: readonly number[];
  /** Size of vectors.hnsw in bytes. */
  readonly bytes: number;
  /** sha256 (hex) of vectors.hnsw. */
  readonly sha256: string;
  /** ISO 8601. */
  readonly savedAt: string;
}

/** Paths of the graph and meta files of `indexDir`. */
export function hnswPaths(indexDir: string): { graph: string; meta: string } {
  return { graph: join(indexDir, HNSW_FILE), meta: join(indexDir, HNSW_META_FILE) };
}

/** Parses and shape-checks meta JSON text; returns null when it is not a valid HnswMeta. */
export function parseHnswMeta(text: string): HnswMeta | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // unparsable meta means "no usable saved graph", which the caller handles by rebuilding
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
  const ok =
    m.formatVersion === 1 && isCount(m.dimension) && isCount(m.generation) && isCount(m.maxRowId) &&
    isCount(m.count) && isCount(m.deleted) && isCount(m.bytes) && typeof m.sha256 === 'string' &&
    typeof m.savedAt === 'string' && Array.isArray(m.deletedRowIds) && m.deletedRowIds.every(isCount) &&
    m.deletedRowIds.length === m.deleted && m.deleted <= m.count;
  return ok ? (value as HnswMeta) : null;
}

/** Reads the meta file's text, or null when it does not exist or cannot be read. */
export function readMetaText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // a missing or unreadable meta is the "no saved graph" case; the caller rebuilds
  }
}

/** sha256 (hex) and size of a file, streamed. Throws the fs error. */
export async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.byteLength;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** sha256 (hex) of a file, read synchronously in 4 MiB blocks. Throws the fs error. */
export function hashFileSync(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(1 << 22);
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

const HEADER_BYTES = 96;

/**
 * Checks the fixed header of an hnswlib file (64-bit layout) against what we expect, so hnswlib never
 * allocates from garbage sizes or reads vectors of another dimension. Returns a problem, or null when sane.
 */
export function checkHnswHeader(path: string, expected: { dimension: number; count: number; bytes: number }): string | null {
  if (expected.bytes < HEADER_BYTES) return `file is ${expected.bytes} bytes, shorter than the header`;
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  try {
    if (readSync(fd, header, 0, HEADER_BYTES, 0) !== HEADER_BYTES) return 'header is truncated';
  } finally {
    closeSync(fd);
  }
  const u64 = (offset: number): number => Number(header.readBigUInt64LE(offset));
  const [offsetLevel0, maxElements, count, sizeData, labelOffset, offsetData] = [0, 8, 16, 24, 32, 40].map(u64);
  const maxLevel = header.readInt32LE(48);
  const enterPoint = header.readUInt32LE(52);
  const [maxM, maxM0, m] = [56, 64, 72].map(u64);
  const links0 = (maxM0 ?? 0) * 4 + 4;
  const checks: Array<[boolean, string]> = [
    [offsetLevel0 === 0, 'level-0 offset is not 0'],
    [m !== undefined && m >= 2 && m <= 10_000 && maxM === m && maxM0 === 2 * m, 'M parameters are inconsistent'],
    [offsetData === links0 && labelOffset === links0 + expected.dimension * 4, `vectors are not ${expected.dimension}d`],
    [sizeData === links0 + expected.dimension * 4 + 8, 'element size does not match'],
    [count === expected.count, `holds ${count} elements, meta says ${expected.count}`],
    [maxElements !== undefined && count !== undefined && maxElements >= count && maxElements <= Math.max(count * 4, 1 << 24),
      'capacity is implausible'],
    [maxLevel >= -1 && maxLevel < 64 && (count === 0 || enterPoint < (count ?? 0)), 'entry point is out of range'],
    [expected.bytes >= HEADER_BYTES + (count ?? 0) * ((sizeData ?? 0) + 4), 'file is shorter than its elements'],
  ];
  return checks.find(([ok]) => !ok)?.[1] ?? null;
}
