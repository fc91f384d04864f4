import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Chunk } from '../../../src/types.js';

/** Reads a chunker fixture (stored as `<name>.txt` so tsc does not compile it). */
export function readFixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../fixtures/chunk/${name}.txt`, import.meta.url)), 'utf8');
}

/** `kind symbol parent start-end [part]` per chunk, for exact comparisons. */
export function outline(chunks: readonly Chunk[]): string[] {
  return chunks.map((c) => {
    const part = c.part === undefined ? '' : ` part ${c.part.index + 1}/${c.part.count}`;
    return `${c.kind} ${c.symbol} ${c.parent ?? '-'} ${c.startLine}-${c.endLine}${part}`;
  });
}

/** 1-based lines of `content` that are non-blank, not part of an import statement and in no chunk. */
export function uncoveredLines(content: string, chunks: readonly Chunk[]): number[] {
  const lines = content.split('\n');
  const covered = new Set<number>();
  for (const c of chunks) for (let l = c.startLine; l <= c.endLine; l += 1) covered.add(l);
  const missing: number[] = [];
  let inImport = false;
  lines.forEach((text, i) => {
    const isImportStart = /^\s*import\b/.test(text);
    const isImport = inImport || isImportStart;
    if (isImportStart) inImport = !/from\s+['"].*['"];?\s*$|^\s*import\s+['"].*['"];?\s*$/.test(text);
    else if (inImport && /from\s+['"].*['"];?\s*$/.test(text)) inImport = false;
    if (!isImport && text.trim() !== '' && !covered.has(i + 1)) missing.push(i + 1);
  });
  return missing;
}

/**
 * 1-based lines of `content` that are non-blank, in no chunk and not inside a match of `imports` (a global
 * regex over the whole text matching the language's import statements, which the chunker drops).
 */
export function uncoveredLinesExcept(content: string, chunks: readonly Chunk[], imports: RegExp): number[] {
  const lineOf = (offset: number): number => content.slice(0, offset).split('\n').length;
  const covered = new Set<number>();
  for (const c of chunks) for (let l = c.startLine; l <= c.endLine; l += 1) covered.add(l);
  for (const m of content.matchAll(imports)) {
    for (let l = lineOf(m.index); l <= lineOf(m.index + m[0].length - 1); l += 1) covered.add(l);
  }
  return content.split('\n').flatMap((text, i) => (text.trim() !== '' && !covered.has(i + 1) ? [i + 1] : []));
}
