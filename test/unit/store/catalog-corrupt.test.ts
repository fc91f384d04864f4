import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexCorruptError } from '../../../src/errors.js';
import { quarantineCorruptDatabase } from '../../../src/store/catalog-open.js';
import { catalogFileStamp, CHECK_STAMP_FILE } from '../../../src/store/check-stamp.js';
import { Catalog } from '../../../src/store/catalog.js';
import { makeTempDirs } from './store-helpers.js';

const tmp = makeTempDirs();
afterEach(() => {
  vi.restoreAllMocks();
  tmp.cleanup();
});

describe('a damaged catalog', () => {
  it('is reported as IndexCorruptError naming the path, and can be quarantined and rebuilt', () => {
    const dir = tmp.make();
    const path = join(dir, 'catalog.sqlite');
    writeFileSync(path, 'this is not a database, just some text that is long enough '.repeat(200));

    let caught: unknown;
    try {
      Catalog.open(dir);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(IndexCorruptError);
    expect((caught as IndexCorruptError).path).toBe(path);
    expect((caught as Error).message).toContain(path);

    expect(() => Catalog.open(dir, { readonly: true })).toThrow(IndexCorruptError);

    const moved = quarantineCorruptDatabase(dir);
    expect(moved).toMatch(/catalog\.sqlite\.corrupt-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual([moved.slice(dir.length + 1)]);

    const fresh = Catalog.open(dir);
    expect(fresh.stats().files).toBe(0);
    fresh.close();
  });

  it('quarantine moves the -wal and -shm files with the database', () => {
    const dir = tmp.make();
    for (const suffix of ['', '-wal', '-shm']) writeFileSync(join(dir, `catalog.sqlite${suffix}`), 'x');
    const moved = quarantineCorruptDatabase(dir);
    const name = moved.slice(dir.length + 1);
    expect(readdirSync(dir).sort()).toEqual([name, `${name}-shm`, `${name}-wal`]);
  });

  it('is detected when a valid header hides damaged pages', () => {
    const dir = tmp.make();
    const catalog = Catalog.open(dir);
    catalog.close();
    const path = join(dir, 'catalog.sqlite');
    // Keep SQLite's 100-byte header but overwrite the first page's b-tree.
    const bytes = readFileSync(path);
    bytes.fill(0xff, 100, 4096);
    writeFileSync(path, bytes);
    expect(() => Catalog.open(dir)).toThrow(IndexCorruptError);
  });

  it('is checked once per state of the files: an unchanged catalog opens without quick_check, any write means a new check', () => {
    const dir = tmp.make();
    const path = join(dir, 'catalog.sqlite');
    const first = Catalog.open(dir);
    first.initManifest({ model: 'm', dimension: 4, revision: 'rev1', root: '/r' });
    first.close();
    const pragma = vi.spyOn(Database.prototype, 'pragma');
    const quickChecks = (): number => pragma.mock.calls.filter(([source]) => source === 'quick_check').length;

    const before = catalogFileStamp(path);
    Catalog.open(dir).close();
    expect(quickChecks()).toBe(1);
    expect(readFileSync(join(dir, CHECK_STAMP_FILE), 'utf8')).toBe(before);
    // Reading left the files as they were: the next opens trust the passed check.
    Catalog.open(dir).close();
    Catalog.open(dir).close();
    expect(quickChecks()).toBe(1);

    // A write through SQLite changes the files: checked again.
    const writer = Catalog.open(dir);
    writer.resetManifest();
    writer.close();
    Catalog.open(dir).close();
    expect(quickChecks()).toBe(2);

    // Damage that keeps the size and the header is still found: ctime moves with any write.
    const bytes = readFileSync(path);
    bytes.fill(0xff, 100, 4096);
    writeFileSync(path, bytes);
    expect(() => Catalog.open(dir)).toThrow(IndexCorruptError);
  });
});
