import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const IMPORTS = /^import\s+[\w.]+(?:\.\*|\s+as\s+\w+)?$/gm;

describe('Kotlin symbol chunks', () => {
  const content = readFixture('Billing.kt');
  const { chunks, warnings } = chunker.chunk({ path: 'src/main/kotlin/com/acme/billing/Billing.kt', language: 'kotlin', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks classes, objects, companions, interfaces, enum classes, functions, extension functions and properties, and top-level properties', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module Billing - 1-2',
      'const ARCHIVE_AFTER_DAYS - 8-10',
      'type InvoiceId - 12-12',
      'class InvoiceService - 14-23',
      'method constructor InvoiceService 25-25',
      'method find InvoiceService 27-28',
      'method settle InvoiceService 30-36',
      'method close InvoiceService 38-38',
      'class Companion InvoiceService 40-40',
      'method inMemory InvoiceService.Companion 41-43',
      'class Line - 45-46',
      'class Payment - 48-48',
      'class Card Payment 49-49',
      'class Cash Payment 50-51',
      'interface Service - 53-55',
      'method describe Service 56-59',
      'enum Status - 61-63',
      'method isFinal Status 65-66',
      'class Ids - 68-68',
      'method next Ids 69-70',
      'method asMoney Long 72-73',
      'method isOverdue Invoice 75-76',
      'function main - 78-80',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('keeps KDoc and annotations with the declaration; signatures start after annotations and stop before the body', () => {
    const service = byLine(14);
    expect(service.text.startsWith('/**\n * Issues invoices and tracks their payment.\n */\n@Singleton\nclass InvoiceService(')).toBe(true);
    expect(service.signature).toBe('class InvoiceService(private val repo: InvoiceRepository) : Service, AutoCloseable');
    expect(service.text).toContain('init {\n        require(repo.isOpen)\n    }');
    expect(byLine(27).text.startsWith('    /** The invoice, from the cache when it was read before. */\n    fun find(')).toBe(true);
    expect(byLine(27).signature).toBe('fun find(id: InvoiceId): Invoice?');
    expect(byLine(30).text.startsWith('    @Throws(IllegalStateException::class)\n    suspend fun <T : Payment> settle(')).toBe(true);
    expect(byLine(30).signature).toBe('suspend fun <T : Payment> settle(invoice: Invoice, payment: T): Receipt');
    expect(byLine(41).embedText).toContain('// method InvoiceService.Companion.inMemory\n');
    expect(byLine(50).signature).toBe('object Cash : Payment()');
    expect(byLine(53).text).toBe('interface Service {\n    val name: String\n    fun close()');
    expect(byLine(61).text).toContain('PAID("paid");');
    expect(byLine(72).signature).toBe('fun Long.asMoney(currency: Currency = defaultCurrency): String');
    expect(byLine(72).embedText).toContain('// method Long.asMoney\n');
    expect(byLine(75).signature).toBe('val Invoice.isOverdue: Boolean get() = open && dueAt < Instant.now()');
    expect(byLine(8).signature).toBe('const val ARCHIVE_AFTER_DAYS = 90');
    expect(byLine(8).embedText).toContain('// const ARCHIVE_AFTER_DAYS (+ defaultCurrency)\n');
  });

  it('repeats the KDoc in the header of later parts', () => {
    const long = `class Loader {\n    /** Loads every setting from disk. */\n    @Synchronized\n    fun load(path: String): Settings {\n${Array.from({ length: 120 }, (_, i) => `        val value${i} = readSetting(path, "key_${i}")`).join('\n')}\n        return Settings()\n    }\n}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'Loader.kt', language: 'kotlin', content: long }).chunks.filter((c) => c.symbol === 'load');
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[1]!.embedText).toContain('// fun load(path: String): Settings\n// Loads every setting from disk.\n');
  });
});
