/** Natural-language-ish queries derived from the symbols an index holds. */
import type { CodeIndex } from '../../src/index.js';
import { splitIdentifier } from '../../src/index.js';
import { seededRandom, shuffled } from './seeded.js';

/** Chunk kinds that carry a real symbol name (module chunks use the file name, text chunks none). */
const NAMED_KINDS = new Set(['function', 'method', 'class', 'interface', 'type', 'enum', 'namespace', 'const']);

/**
 * `n` distinct queries made from the identifiers of randomly chosen chunks, e.g. `flatten deep function` or
 * `page wait for load state method of frame`: the words a developer would type, not the exact identifier,
 * so lexical search does not win by construction. Deterministic for a given seed and index.
 */
export function queriesFromIndex(index: CodeIndex, o: { n: number; seed: number }): string[] {
  const { catalog } = index.store;
  const rowIds = shuffled(catalog.liveRowIds(), seededRandom(o.seed));
  const queries = new Set<string>();
  for (let start = 0; start < rowIds.length && queries.size < o.n; start += 500) {
    for (const row of catalog.getChunks(rowIds.slice(start, start + 500))) {
      if (!NAMED_KINDS.has(row.kind)) continue;
      const words = splitIdentifier(row.symbol);
      if (words.length === 0) continue;
      const parent = row.parent ? ` of ${splitIdentifier(row.parent).join(' ')}` : '';
      queries.add(`${words.join(' ')} ${row.kind}${parent}`);
      if (queries.size >= o.n) break;
    }
  }
  return [...queries];
}
