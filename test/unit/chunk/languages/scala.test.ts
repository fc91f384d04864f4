import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const IMPORTS = /^import\s+[\w.]+(?:\.\{[^}]*\}|\.\*|\._)?$/gm;

describe('Scala symbol chunks', () => {
  const content = readFixture('Catalog.scala');
  const { chunks, warnings } = chunker.chunk({ path: 'src/main/scala/com/acme/catalog/Catalog.scala', language: 'scala', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks classes, objects, traits, case classes, enums, package objects, extensions, defs and top-level vals', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module Catalog - 1-1',
      'const DefaultPageSize - 6-7',
      'type ProductId - 9-9',
      'class Catalog - 11-19',
      'method this Catalog 21-21',
      'method find Catalog 23-28',
      'method remember Catalog 30-34',
      'method close Catalog 36-36',
      'class Cursor Catalog 38-39',
      'class Catalog - 41-42',
      'method apply Catalog 44-45',
      'interface Service - 47-49',
      'method describe Service 50-51',
      'interface Availability - 53-53',
      'class InStock - 54-54',
      'class Backorder - 55-55',
      'class Product - 57-57',
      'method price Product 58-59',
      'enum Currency - 61-63',
      'method format Currency 65-66',
      'namespace pricing - 68-68',
      'const VatRate pricing 69-69',
      'function gross pricing 71-72',
      'class Product - 74-74',
      'method slug Product 75-75',
      'method isFree Product 76-76',
      'function main - 78-79',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('keeps Scaladoc and annotations with the definition; signatures stop before `=` and the template body', () => {
    const catalog = byLine(11);
    expect(catalog.text.startsWith('/**\n * Reads and caches the product catalog.\n *\n * @param db where products are stored\n */\n@deprecated("use CatalogV2", "2.0")\nclass Catalog[F[_]]')).toBe(true);
    expect(catalog.signature).toBe('class Catalog[F[_]](db: Database)(implicit ec: ExecutionContext) extends Service with AutoCloseable');
    expect(catalog.text).toContain('type Page = Seq[Product]');
    expect(byLine(23).text.startsWith('  /** The product, from the cache when it was read before. */\n  def find(')).toBe(true);
    expect(byLine(23).signature).toBe('def find(id: ProductId): Future[Option[Product]]');
    // The grammar files this comment inside find's indented body; it documents remember.
    expect(byLine(23).text).not.toContain('Keeps a product');
    expect(byLine(30).text.startsWith('  // Keeps a product for later lookups.\n  private def remember(')).toBe(true);
    expect(byLine(36).signature).toBe('override def close(): Unit');
    expect(byLine(44).embedText).toContain('// method Catalog.apply\n');
    expect(byLine(47).text).toContain('def name: String');
    expect(byLine(61).text).toContain('case Usd extends Currency("USD")');
    expect(byLine(74).signature).toBe('extension (p: Product)');
    expect(byLine(75).embedText).toContain('// method Product.slug\n');
    expect(byLine(6).signature).toBe('val DefaultPageSize = 20');
  });

  it('repeats the doc in the header of later parts, also a comment the grammar put in the previous body', () => {
    const body = Array.from({ length: 120 }, (_, i) => `    val value${i} = readSetting(path, "key_${i}")`).join('\n');
    const long = `object Loader {\n  def version: Int =\n    3\n\n  /** Loads every setting from disk. */\n  def load(path: String): Settings = {\n${body}\n    Settings()\n  }\n}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'Loader.scala', language: 'scala', content: long }).chunks;
    const load = parts.filter((c) => c.symbol === 'load');
    expect(load.length).toBeGreaterThan(1);
    expect(load[0]!.text.startsWith('  /** Loads every setting from disk. */\n  def load(')).toBe(true);
    expect(load[1]!.embedText).toContain('// def load(path: String): Settings\n// Loads every setting from disk.\n');
    expect(parts.find((c) => c.symbol === 'version')!.text).toBe('  def version: Int =\n    3');
  });
});
