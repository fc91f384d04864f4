/**
 * From the public symbols of a corpus to doc2code tasks: one query per documented symbol, every declaration of
 * the symbol in its file as gold (overloads, property setters), the same symbol declared in several files
 * listed once per location. A query shared by different symbols is ambiguous and dropped: across files, as the
 * eval README says, and within one file too (e.g. Go's `GET`, `POST`, ... "registers a new route"), as
 * scripts/train/doc2code.ts does, since such a query cannot single out its symbol.
 */
import { createHash } from 'node:crypto';
import { queryOf } from './query-text.js';
import type { Doc2CodeCandidate, SymbolGold } from '../train/doc2code.js';
import type { DocumentedSymbol } from './symbols.js';

export type { Doc2CodeCandidate, SymbolGold };

/** How many symbols each rule kept or dropped, for the build summary. */
export interface BuildCounts {
  symbols: number;
  documented: number;
  noQuery: number;
  ambiguous: number;
  candidates: number;
}

const byLocation = (a: SymbolGold, b: SymbolGold): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine);
const normalize = (query: string): string => query.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** The candidates of a corpus, ordered by their first gold location. */
export function buildCandidates(symbols: readonly DocumentedSymbol[]): { candidates: Doc2CodeCandidate[]; counts: BuildCounts } {
  const groups = new Map<string, DocumentedSymbol[]>();
  for (const s of symbols) {
    const key = `${s.path}\0${s.symbol}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const counts: BuildCounts = { symbols: groups.size, documented: 0, noQuery: 0, ambiguous: 0, candidates: 0 };
  const byQuery = new Map<string, { query: string; symbols: Set<string>; gold: SymbolGold[] }>();
  for (const decls of groups.values()) {
    const documented = decls.find((d) => d.paragraph !== null && d.paragraph !== '');
    if (documented === undefined) continue;
    counts.documented++;
    const query = queryOf(documented.paragraph as string, documented.name);
    if (query === null) {
      counts.noQuery++;
      continue;
    }
    const key = normalize(query);
    const entry = byQuery.get(key) ?? { query, symbols: new Set<string>(), gold: [] };
    entry.symbols.add(documented.symbol);
    entry.gold.push(...decls.map(({ path, symbol, startLine, endLine }) => ({ path, symbol, startLine, endLine })));
    byQuery.set(key, entry);
  }
  const candidates: Doc2CodeCandidate[] = [];
  for (const e of byQuery.values()) {
    // One symbol in several files is a re-declaration (any location counts); several symbols are ambiguous.
    if (e.symbols.size > 1) {
      counts.ambiguous += e.symbols.size;
      continue;
    }
    candidates.push({ query: e.query, gold: e.gold.sort(byLocation) });
  }
  candidates.sort((a, b) => byLocation(a.gold[0]!, b.gold[0]!));
  counts.candidates = candidates.length;
  return { candidates, counts };
}

/** At most `max` candidates, chosen by a hash of their first gold location (stable across runs), in location order. */
export function sampleCandidates(candidates: readonly Doc2CodeCandidate[], max: number): Doc2CodeCandidate[] {
  if (candidates.length <= max) return [...candidates];
  const hash = (c: Doc2CodeCandidate): string => createHash('sha1').update(`${c.gold[0]!.path}\0${c.gold[0]!.symbol}`).digest('hex');
  const keep = new Set([...candidates].sort((a, b) => (hash(a) < hash(b) ? -1 : 1)).slice(0, max));
  return candidates.filter((c) => keep.has(c));
}
