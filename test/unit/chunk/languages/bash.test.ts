import { describe, expect, it } from 'vitest';
import { docText } from '../../../../src/chunk/chunk-record.js';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const NOTHING = /(?!)/g;

describe('Bash symbol chunks', () => {
  const content = readFixture('deploy.sh');
  const { chunks, warnings } = chunker.chunk({ path: 'scripts/deploy.sh', language: 'bash', content });
  const byName = (name: string) => chunks.find((c) => c.symbol === name)!;

  it('chunks both function syntaxes; everything else (shebang, variables, source, main script) is module code', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module deploy - 1-8',
      'function log - 10-13',
      'function die - 15-16',
      'function build - 18-21',
      'function upload - 23-33',
      'function cleanup - 35-37',
      'module deploy - 38-53',
    ]);
    expect(uncoveredLinesExcept(content, chunks, NOTHING)).toEqual([]);
  });

  it('keeps # comments with their function and gives signatures without the body', () => {
    expect(byName('log').text.startsWith('# Prints a timestamped message to stderr.\nlog() {')).toBe(true);
    expect(byName('log').signature).toBe('log()');
    expect(byName('build').signature).toBe('function build');
    expect(byName('upload').signature).toBe('function upload()');
    expect(byName('upload').text.startsWith('# Copies the build to one host, then restarts the service there.\n#   $1  host name\nfunction upload() {')).toBe(true);
    expect(chunks[0]!.text.startsWith('#!/usr/bin/env bash\n# deploy.sh')).toBe(true);
    expect(chunks[0]!.text).toContain('source "$APP_DIR/scripts/common.sh"');
  });

  it('reads # comments as the doc repeated in the header of later parts', () => {
    expect(docText('# Copies the build.\n#   $1  host name')).toBe('Copies the build. $1 host name');
    const long = `# Loads every setting from disk.\nload() {\n${Array.from({ length: 120 }, (_, i) => `  value_${i}="$(read_setting "$1" key_${i})"`).join('\n')}\n}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'load.sh', language: 'bash', content: long }).chunks;
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[1]!.embedText).toContain('// load()\n// Loads every setting from disk.\n');
  });
});
