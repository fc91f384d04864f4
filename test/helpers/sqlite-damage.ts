import Database from 'better-sqlite3';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/** Reads a SQLite varint at `at`; returns the value and the offset after it. */
function readVarint(page: Buffer, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = page[at + i]!;
    if (i === 8) return [value * 256 + byte, at + 9];
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, at + i + 1];
  }
  throw new Error('unreachable');
}

/**
 * Bit rot inside an index b-tree that SQLite's quick_check does not see: flips the low bit of the row id stored in
 * the first entry of the index's leftmost leaf page, so that entry names another row. The page stays well formed
 * (quick_check passes); integrity_check reports "row N missing from index", and writes touching row N fail with
 * SQLITE_CORRUPT_INDEX. Checkpoints the WAL first so the damage lands in the main file. Returns N.
 */
export function damageIndexBtree(dbPath: string, indexName: string): number {
  const db = new Database(dbPath);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(indexName) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(dbPath, 'r+');
  try {
    const page = Buffer.alloc(pageSize);
    let pageNo = root;
    for (;;) {
      readSync(fd, page, 0, pageSize, (pageNo - 1) * pageSize);
      if (page[0] === 0x0a) break; // index leaf
      if (page[0] !== 0x02) throw new Error(`page ${pageNo} of ${indexName} is not an index b-tree page`);
      pageNo = page.readUInt32BE(page.readUInt16BE(12)); // interior: the first cell's left child
    }
    const [size, start] = readVarint(page, page.readUInt16BE(8));
    // The record's last column is the row id; its last byte is the low byte.
    const last = start + size - 1;
    const before = page[last]!;
    page[last] = before ^ 0x01;
    writeSync(fd, page, 0, pageSize, (pageNo - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  const check = new Database(dbPath, { readonly: true });
  const line = (check.pragma('integrity_check') as Array<{ integrity_check: string }>)[0]!.integrity_check;
  check.close();
  const row = /^row (\d+) missing from index/.exec(line);
  if (!row) throw new Error(`damaging ${indexName} left: ${line}`);
  return Number(row[1]);
}
