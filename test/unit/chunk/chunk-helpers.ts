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
