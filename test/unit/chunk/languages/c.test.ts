import { describe, expect, it } from 'vitest';
import { looksLikeCpp } from '../../../../src/chunk/languages/c.js';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const INCLUDES = /^\s*#\s*include\s+[^\n]+$/gm;

describe('C header symbol chunks', () => {
  const content = readFixture('ring.h');
  const { chunks, warnings } = chunker.chunk({ path: 'include/ring.h', language: 'c', content });
  const byName = (name: string) => chunks.find((c) => c.symbol === name)!;

  it('walks through the include guard and extern "C": one chunk per macro, type and prototype', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module ring - 1-5',
      'module ring - 10-12',
      'const RING_DEFAULT_CAPACITY - 14-15',
      'function RING_MIN - 16-16',
      'enum ring_status - 18-23',
      'class ring_t - 25-31',
      'class ring_stats - 33-36',
      'type ring_callback - 38-38',
      'function ring_new - 40-41',
      'function ring_free - 43-44',
      'function ring_write - 46-47',
      'function ring_read - 48-48',
      'function ring_size - 50-52',
      'module ring - 54-58',
    ]);
    expect(uncoveredLinesExcept(content, chunks, INCLUDES)).toEqual([]);
  });

  it('names typedefs and prototypes through their declarators, doc comments glued', () => {
    expect(byName('ring_t').text.startsWith('/** A ring buffer; head and tail wrap at capacity. */\ntypedef struct ring {')).toBe(true);
    expect(byName('ring_t').signature).toBe('typedef struct ring');
    expect(byName('ring_callback').signature).toBe('typedef void (*ring_callback)(ring_t *ring, void *user)');
    expect(byName('ring_new').text).toBe('/** Allocates a ring of `capacity` bytes; NULL when out of memory. */\nring_t *ring_new(size_t capacity);');
    expect(byName('ring_new').signature).toBe('ring_t *ring_new(size_t capacity)');
    expect(byName('RING_MIN').signature).toBe('#define RING_MIN(a, b) ((a) < (b) ? (a) : (b))');
    expect(byName('RING_DEFAULT_CAPACITY').text.startsWith('/* Capacity used when the caller passes 0. */\n#define')).toBe(true);
    expect(chunks[0]!.text).toContain('#ifndef RING_H\n#define RING_H');
    expect(chunks[chunks.length - 1]!.text).toBe('#ifdef __cplusplus\n}\n#endif\n\n#endif /* RING_H */');
  });
});

describe('C source symbol chunks', () => {
  const content = readFixture('ring.c');
  const { chunks, warnings } = chunker.chunk({ path: 'src/ring.c', language: 'c', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks functions, a prototype with its definition, globals, macros and both branches of an #ifdef (#else/#endif lines joined to them)', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module ring - 1-1',
      'function WRAP - 6-6',
      'const total_writes - 8-9',
      'function ring_free_space - 11-16',
      'function ring_new - 18-27',
      'function ring_free - 29-34',
      'function ring_write - 36-48',
      'function ring_read - 50-57',
      'module ring - 59-59',
      'function ring_dump - 62-65',
      'function ring_dump - 66-68',
      'function ring_namer - 70-72',
    ]);
    expect(uncoveredLinesExcept(content, chunks, INCLUDES)).toEqual([]);
  });

  it('gives signatures up to the body and keeps block comments with their function', () => {
    expect(byLine(11).text).toContain('static size_t ring_free_space(const ring_t *ring);\n\n/* Free bytes left');
    expect(byLine(36).text.startsWith('/*\n * Copies bytes in, stopping when the ring is full.')).toBe(true);
    expect(byLine(36).signature).toBe('size_t ring_write(ring_t *ring, const uint8_t *src, size_t len)');
    expect(byLine(18).signature).toBe('ring_t *ring_new(size_t capacity)');
    expect(byLine(70).signature).toBe('const char *(*ring_namer(void))(int status)');
    expect(byLine(8).embedText).toContain('// const total_writes (+ ring_status_names)\n');
    // The #else branch opens the macro's chunk and #endif closes it; the signature is the macro alone.
    expect(byLine(66).text).toBe('#else\n#define ring_dump(ring) ((void)(ring))\n#endif');
    expect(byLine(66).signature).toBe('#define ring_dump(ring) ((void)(ring))');
  });

  it('repeats a block comment as the doc of later parts', () => {
    const long = `/*\n * Loads every setting from disk.\n */\nint load(const char *path) {\n${Array.from({ length: 120 }, (_, i) => `    int value_${i} = read_setting(path, "key_${i}");`).join('\n')}\n    return 0;\n}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'load.c', language: 'c', content: long }).chunks;
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[1]!.embedText).toContain('// int load(const char *path)\n// Loads every setting from disk.\n');
  });
});

describe('a .h header written in C++', () => {
  const header = [
    '#pragma once',
    '#include <string>',
    '',
    '/// A named widget.',
    'class Widget {',
    'public:',
    '    explicit Widget(std::string name) : name_(std::move(name)) {}',
    '    const std::string &name() const { return name_; }',
    '',
    'private:',
    '    std::string name_;',
    '};',
    '',
  ].join('\n');

  it('is sniffed as C++ and chunked with the C++ grammar (chunks keep the file language)', () => {
    const { chunks, warnings } = chunker.chunk({ path: 'src/widget.h', language: 'c', content: header });
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module widget - 1-1',
      'class Widget - 4-6',
      'method Widget Widget 7-7',
      'method name Widget 8-8',
      'class Widget - 10-12',
    ]);
    expect(chunks.every((c) => c.language === 'c')).toBe(true);
  });

  it('tells C++ markers from C that merely looks similar', () => {
    expect(looksLikeCpp(header)).toBe(true);
    expect(looksLikeCpp('namespace app {\nint f();\n}\n')).toBe(true);
    expect(looksLikeCpp('template <typename T>\nT id(T v);\n')).toBe(true);
    expect(looksLikeCpp('struct Derived : public Base {\n};\n')).toBe(true);
    expect(looksLikeCpp(readFixture('ring.h'))).toBe(false);
    expect(looksLikeCpp(readFixture('ring.c'))).toBe(false);
    expect(looksLikeCpp('struct node {\n    int class;\n    struct node *new;\n};\n#ifdef __cplusplus\nextern "C" {\n#endif\n')).toBe(false);
  });
});
