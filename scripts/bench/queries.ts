/** Natural-language-ish queries derived from the symbols an index holds, or read from a file. */
import { readFile } from 'node:fs/promises';
import type { CodeIndex } from '../../src/index.js';
import { splitIdentifier } from '../../src/index.js';
import { BenchUsageError } from './cli-args.js';
import { seededRandom, shuffled } from './seeded.js';

/** Chunk kinds that carry a real symbol name (module chunks use the file name, text chunks none). */
const NAMED_KINDS = new Set(['function', 'method', 'class', 'interface', 'type', 'enum', 'namespace', 'const']);

/**
 * `n` distinct queries made from the identifiers of randomly chosen chunks, e.g. `flatten deep function` or
 * `page wait for load state method of frame`: the words a developer would type, not the exact identifier,
 * so lexical search does not win by construction. Deterministic for a given seed and index.
 */
export async function queriesFromIndex(index: CodeIndex, o: { n: number; seed: number }): Promise<string[]> {
  const { catalog } = index.store;
  const rowIds = shuffled(await catalog.liveRowIds(), seededRandom(o.seed));
  const queries = new Set<string>();
  for (let start = 0; start < rowIds.length && queries.size < o.n; start += 500) {
    for (const row of await catalog.getChunks(rowIds.slice(start, start + 500))) {
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

/**
 * Queries from a file: one per line, or JSONL whose objects carry a "query" string (lines without one, such as an
 * eval set's header, are skipped). Blank lines are skipped.
 * @throws BenchUsageError when the file cannot be read or holds no query.
 */
export async function queriesFromFile(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BenchUsageError(`--queries-file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const queries = text.split('\n').map((line) => line.trim()).filter(Boolean).flatMap((line) => {
    if (!line.startsWith('{')) return [line];
    try {
      const query = (JSON.parse(line) as { query?: unknown }).query;
      return typeof query === 'string' && query.trim() !== '' ? [query] : [];
    } catch {
      return [line];
    }
  });
  if (queries.length === 0) throw new BenchUsageError(`--queries-file ${file} holds no query.`);
  return queries;
}
