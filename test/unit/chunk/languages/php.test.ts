import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const USES = /^use\s+[^;]+;$/gm;

describe('PHP symbol chunks', () => {
  const content = readFixture('UserController.php');
  const { chunks, warnings } = chunker.chunk({ path: 'app/Http/Controllers/UserController.php', language: 'php', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks interfaces, traits, enums and classes with their methods, functions and constants; use dropped', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module UserController - 1-5',
      'const DEFAULT_PAGE_SIZE - 11-11',
      'interface Arrayable - 13-19',
      'class Paginates - 21-23',
      'method page Paginates 25-29',
      'enum Role - 31-34',
      'method label Role 36-40',
      'class UserController - 42-50',
      'method __construct UserController 52-54',
      'method index UserController 56-64',
      'method show UserController 66-70',
      'class UserController - 72-72',
      'method toArray UserController 74-78',
      'function handle_for - 80-84',
      'module UserController - 86-86',
    ]);
    expect(uncoveredLinesExcept(content, chunks, USES)).toEqual([]);
  });

  it('glues PHPDoc, # comments and attributes; signatures start after the attributes', () => {
    expect(byLine(42).text.startsWith("/**\n * Lists and shows users.\n */\n#[Controller(prefix: '/users')]\nabstract class UserController")).toBe(true);
    expect(byLine(42).signature).toBe('abstract class UserController extends Controller implements Arrayable');
    expect(byLine(42).text).toContain('use Paginates;');
    expect(byLine(56).text.startsWith("    /**\n     * Lists users, one page at a time.\n     */\n    #[Route('GET', '/')]\n    public function index(")).toBe(true);
    expect(byLine(56).signature).toBe('public function index(Request $request): array');
    expect(byLine(56).embedText).toContain('// method UserController.index\n');
    expect(byLine(66).text.startsWith('    // Shows one user by id.\n')).toBe(true);
    expect(byLine(80).text.startsWith('# Builds a URL-safe handle from a display name.\nfunction handle_for(')).toBe(true);
    expect(byLine(13).text).toContain('public function toArray(): array;');
    expect(byLine(31).signature).toBe('enum Role: string');
    expect(byLine(1).text).toContain('namespace App\\Http\\Controllers;');
  });

  it('chunks PHP inside HTML and braced namespaces', () => {
    const page = '<html>\n<body>\n<?php\n// Renders one row.\nfunction row($item) {\n    return "<li>" . htmlspecialchars($item) . "</li>";\n}\n?>\n<ul>\n<?php foreach ($items as $item): ?>\n  <?= row($item) ?>\n<?php endforeach; ?>\n</ul>\n</body>\n</html>\n';
    expect(outline(chunker.chunk({ path: 'page.php', language: 'php', content: page }).chunks)).toEqual([
      'module page - 1-3',
      'function row - 4-7',
      'module page - 8-15',
    ]);
    const braced = '<?php\nnamespace App\\Util {\n    // Joins path parts.\n    function join_path(string ...$parts): string { return implode(\'/\', $parts); }\n}\nnamespace {\n    # Says hi.\n    function hi() { echo "hi"; }\n    hi();\n}\n';
    expect(outline(chunker.chunk({ path: 'util.php', language: 'php', content: braced }).chunks)).toEqual([
      'module util - 1-1',
      'namespace App.Util - 2-2',
      'function join_path App.Util 3-5',
      'function hi - 6-8',
      'module util - 9-10',
    ]);
  });
});
