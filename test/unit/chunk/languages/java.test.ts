import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const IMPORTS = /^import\s+(?:static\s+)?[\w.*]+\s*;$/gm;

describe('Java symbol chunks', () => {
  const content = readFixture('OrderService.java');
  const { chunks, warnings } = chunker.chunk({ path: 'src/main/java/com/acme/orders/OrderService.java', language: 'java', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks classes, interfaces, enums, records and annotation types, with methods, constructors and nested types', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module OrderService - 1-1',
      'class OrderService - 7-14',
      'method OrderService OrderService 16-20',
      'method find OrderService 22-25',
      'method place OrderService 27-33',
      'class OrderService - 35-35',
      'enum Status OrderService 37-43',
      'method Status OrderService.Status 45-47',
      'method label OrderService.Status 49-52',
      'class Line OrderService 54-58',
      'interface Lookup - 60-62',
      'method require Lookup 64-67',
      'class Money - 69-70',
      'method Money Money 71-74',
      'interface Audited - 76-79',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('keeps Javadoc and annotations with the declaration, and signatures start after the annotations', () => {
    const service = byLine(7);
    expect(service.text.startsWith('/**\n * Places and looks up orders for the storefront.\n */\n@Service\n@Transactional(readOnly = true)\npublic abstract class')).toBe(true);
    expect(service.signature).toBe('public abstract class OrderService<T extends Order> extends BaseService implements Lookup<T>');
    expect(service.text).toContain('private static final int MAX_ITEMS = 50;');
    const ctor = byLine(16);
    expect(ctor.text.startsWith('    /** Creates the service over a repository. */\n    @Inject\n    public OrderService(')).toBe(true);
    expect(ctor.signature).toBe('public OrderService(OrderRepository<T> repository)');
    expect(byLine(22).text.startsWith('    @Override\n    public Optional<T> find(long id) {')).toBe(true);
    expect(byLine(22).signature).toBe('public Optional<T> find(long id)');
    expect(byLine(27).text.startsWith('    // Rejects orders with too many lines.\n')).toBe(true);
    expect(byLine(27).signature).toBe('public <R extends T> R place(R order) throws OrderException');
    expect(byLine(37).text).toContain('SHIPPED("shipped");');
    expect(byLine(45).embedText).toContain('// method OrderService.Status.Status\n');
    expect(byLine(60).text).toContain('Optional<T> find(long id);');
    expect(byLine(76).signature).toBe('@interface Audited');
    expect(byLine(76).text.startsWith('@Retention(RetentionPolicy.RUNTIME)\n@interface Audited {')).toBe(true);
  });

  it('repeats the Javadoc in the header of later parts', () => {
    const long = `class Loader {\n    /** Loads every setting from disk. */\n    @Deprecated\n    Settings load(String path) {\n${Array.from({ length: 120 }, (_, i) => `        String value${i} = readSetting(path, "key_${i}");`).join('\n')}\n        return new Settings();\n    }\n}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'Loader.java', language: 'java', content: long }).chunks.filter((c) => c.symbol === 'load');
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[1]!.embedText).toContain('// method Loader.load (part 2/');
    expect(parts[1]!.embedText).toContain('// Settings load(String path)\n// Loads every setting from disk.\n');
  });
});
