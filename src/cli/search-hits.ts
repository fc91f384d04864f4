import type { Hit } from '../types.js';
import { println, type CliIO } from './output.js';

/** Longest code line shown under a hit by default, in characters (a minified line would fill the screen). */
export const MAX_CODE_LINE_CHARS = 160;

/** How many code lines to show per hit: the first (default), that many more, or the whole chunk. */
export type CodeLines = { readonly more: number } | 'all';

/**
 * Pure: the hits with the parts of one split symbol (a function too big for one chunk) merged into one hit, at the
 * place of its best part: lines from the first part to the last, the best score and similarity, and the parts'
 * code in line order (`...` between parts that are not adjacent). Other hits are kept as they are, in order.
 */
export function mergeSplitParts(hits: readonly Hit[]): Hit[] {
  const groups = new Map<string, Hit[]>();
  const order: Array<Hit | string> = [];
  for (const h of hits) {
    if (h.part === undefined) {
      order.push(h);
      continue;
    }
    const key = [h.path, h.kind, h.parent ?? '', h.symbol, h.part.count].join('\u0000');
    if (!groups.has(key)) {
      groups.set(key, []);
      order.push(key);
    }
    groups.get(key)!.push(h);
  }
  return order.map((entry) => (typeof entry === 'string' ? mergeParts(groups.get(entry)!) : entry));
}

function mergeParts(parts: readonly Hit[]): Hit {
  if (parts.length === 1) return parts[0]!;
  const byLine = [...parts].sort((a, b) => a.startLine - b.startLine);
  const text = byLine.map((p, i) => (i > 0 && p.part!.index !== byLine[i - 1]!.part!.index + 1 ? `...\n${p.text}` : p.text)).join('\n');
  const sims = parts.flatMap((p) => (p.similarity === undefined ? [] : [p.similarity]));
  const { part, ...best } = parts[0]!;
  void part; // the merged hit is the symbol, no longer one part of it
  return {
    ...best,
    startLine: byLine[0]!.startLine,
    endLine: Math.max(...parts.map((p) => p.endLine)),
    score: Math.max(...parts.map((p) => p.score)),
    ...(sims.length === 0 ? {} : { similarity: Math.max(...sims) }),
    text,
  };
}

/**
 * Pure: the code lines to show under a hit: its first line that says something (trimmed, and cut at
 * {@link MAX_CODE_LINE_CHARS}; a line of punctuation only, like `/**` or `(`, is passed over); with `more`, that
 * many lines after it too, or with `all` the whole chunk from its first non-blank line, less their common indentation.
 */
export function codeLines(text: string, lines: CodeLines): string[] {
  const all = text.split(/\r?\n/);
  const telling = all.findIndex((l) => /[\p{L}\p{N}]/u.test(l));
  const first = lines === 'all' || telling < 0 ? all.findIndex((l) => l.trim() !== '') : telling;
  if (first < 0) return [];
  if (lines !== 'all' && lines.more === 0) {
    const line = all[first]!.trim();
    return [line.length > MAX_CODE_LINE_CHARS ? `${line.slice(0, MAX_CODE_LINE_CHARS - 1)}…` : line];
  }
  const shown = all.slice(first, lines === 'all' ? all.length : first + 1 + lines.more).map((l) => l.trimEnd());
  while (shown.at(-1) === '') shown.pop();
  const indent = Math.min(...shown.filter((l) => l !== '').map((l) => /^\s*/.exec(l)![0].length));
  return shown.map((l) => l.slice(indent));
}

/** Prints hits for people: similarity, location and symbol on one line, then the code lines asked for. */
export function printHits(io: CliIO, hits: readonly Hit[], lines: CodeLines): void {
  const spaced = lines === 'all' || lines.more > 0;
  hits.forEach((h, i) => {
    if (spaced && i > 0) println(io);
    const similarity = h.similarity === undefined ? '-'.padStart(4) : h.similarity.toFixed(2);
    println(io, `${similarity}  ${h.path}:${h.startLine}-${h.endLine}  ${h.kind} ${h.parent ? `${h.parent}.` : ''}${h.symbol}`);
    for (const line of codeLines(h.text, lines)) println(io, `      ${line}`);
  });
}

/** Prints the files of the hits, once each, in the order of their best hit. */
export function printFiles(io: CliIO, hits: readonly Hit[]): void {
  for (const file of new Set(hits.map((h) => h.path))) println(io, file);
}
