import { describe, expect, it } from 'vitest';
import { MultiLanguageChunker } from '../../../src/chunk/multi-language-chunker.js';
import { outline, readFixture } from './chunk-helpers.js';

const chunker = new MultiLanguageChunker({ maxTokens: 256 });

describe('single-file components', () => {
  it('chunks a Vue <script setup lang="ts"> block as TypeScript at its real lines; template and style are module chunks', () => {
    const content = readFixture('Counter.vue');
    const { chunks, warnings } = chunker.chunk({ path: 'src/Counter.vue', language: 'vue', content });
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'module Counter - 1-5',
      'interface CounterProps - 10-13',
      'module Counter - 15-16',
      'function increment - 18-22',
      'module Counter - 25-27',
    ]);
    const increment = chunks.find((c) => c.symbol === 'increment')!;
    expect(increment.text).toBe(content.split('\n').slice(17, 22).join('\n'));
    expect(increment.signature).toBe('function increment(): void');
    expect(increment.language).toBe('vue');
    expect(chunks[0]!.text.startsWith('<template>')).toBe(true);
    expect(chunks[4]!.text.startsWith('<style scoped>')).toBe(true);
  });

  it('chunks both Svelte script blocks (module context and instance) and keeps the markup', () => {
    const content = readFixture('TodoList.svelte');
    const { chunks } = chunker.chunk({ path: 'src/TodoList.svelte', language: 'svelte', content });
    expect(outline(chunks)).toEqual([
      'const STORAGE_KEY - 2-3',
      'const items - 9-9',
      'module TodoList - 11-14',
      'function addItem - 16-19',
      'module TodoList - 22-27',
    ]);
    expect(chunks.find((c) => c.symbol === 'STORAGE_KEY')!.text).toContain('/** Shared across every list on the page. */');
  });

  it('a component without a script block is all module chunks, every line covered', () => {
    const content = '<template>\n  <p>static</p>\n</template>\n';
    const { chunks } = chunker.chunk({ path: 'Static.vue', language: 'vue', content });
    expect(outline(chunks)).toEqual(['module Static - 1-3']);
  });
});
