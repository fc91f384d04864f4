import { describe, expect, it } from 'vitest';
import { docText } from '../../../../src/chunk/chunk-record.js';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const REQUIRES = /^\s*require(?:_relative)?\s+[^\n]+$/gm;

describe('Ruby symbol chunks', () => {
  const content = readFixture('billing.rb');
  const { chunks, warnings } = chunker.chunk({ path: 'lib/billing.rb', language: 'ruby', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks modules, classes, methods (singleton ones too), top-level defs and module code; requires dropped', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module billing - 1-1',
      'namespace Billing - 6-8',
      'class InvoiceError Billing 10-11',
      'class Invoice Billing 13-18',
      'method from_json Billing.Invoice 20-24',
      'method initialize Billing.Invoice 26-29',
      'method total Billing.Invoice 31-35',
      'method <=> Billing.Invoice 37-39',
      'method empty Billing.Invoice 41-45',
      'class Invoice Billing 47-47',
      'method overdue? Billing.Invoice 49-52',
      'method issue Billing 54-59',
      'function format_money - 61-61',
      'module billing - 63-63',
    ]);
    expect(uncoveredLinesExcept(content, chunks, REQUIRES)).toEqual([]);
  });

  it('keeps # comments with their definition and gives signatures without the body', () => {
    expect(byLine(13).text.startsWith('  # An invoice: lines, a due date and a total.\n  class Invoice\n    include Comparable')).toBe(true);
    expect(byLine(13).text).toContain('TAX_RATE = 0.2');
    expect(byLine(13).signature).toBe('class Invoice');
    expect(byLine(20).signature).toBe('def self.from_json(text)');
    expect(byLine(20).embedText).toContain('// method Billing.Invoice.from_json\n');
    expect(byLine(31).signature).toBe('def total');
    expect(byLine(6).text).toContain("VERSION = '2.1.0'");
    expect(byLine(10).signature).toBe('class InvoiceError < StandardError');
    expect(byLine(41).text.startsWith('    class << self\n      def empty')).toBe(true);
    expect(byLine(41).signature).toBe('def empty');
    expect(byLine(61).signature).toBe("def format_money(cents) = format('%.2f', cents / 100.0)");
  });

  it('names classes written with a scope by their last segment, the scope as parent', () => {
    const code = 'module Shop\n  class Orders::Refund < Base\n    def apply; end\n  end\nend\n\ndef Config.load(path)\n  new(path)\nend\n';
    expect(outline(chunker.chunk({ path: 'refund.rb', language: 'ruby', content: code }).chunks)).toEqual([
      'namespace Shop - 1-1',
      'class Refund Shop.Orders 2-2',
      'method apply Shop.Orders.Refund 3-5',
      'method load Config 7-9',
    ]);
  });

  it('reads # comments as the doc repeated in the header of later parts', () => {
    expect(docText('# Sum of the lines\n# plus tax.')).toBe('Sum of the lines plus tax.');
    expect(docText('=begin\nLegacy importer.\n=end')).toBe('Legacy importer.');
    const long = `# Loads every setting from disk.\ndef load(path)\n${Array.from({ length: 120 }, (_, i) => `  value_${i} = read_setting(path, "key_${i}")`).join('\n')}\nend\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'load.rb', language: 'ruby', content: long }).chunks;
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[1]!.embedText).toContain('// def load(path)\n// Loads every setting from disk.\n');
  });
});
