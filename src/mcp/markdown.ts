/** Pieces of the Markdown that tool results show agents: fenced code, chunk titles, clipped prose. */

const LANGUAGE_TAGS: Readonly<Record<string, string>> = {
  ts: 'ts', mts: 'ts', cts: 'ts', tsx: 'tsx', js: 'js', mjs: 'js', cjs: 'js', jsx: 'jsx', md: 'md', markdown: 'md', json: 'json',
};

/** The info string of a fence for a file path (`ts` for `src/a.ts`), or '' when unknown. */
export function languageTag(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 || dot < path.lastIndexOf('/') ? '' : (LANGUAGE_TAGS[path.slice(dot + 1).toLowerCase()] ?? '');
}

/**
 * Code in a Markdown fence. The fence is one backtick longer than the longest run of backticks in the code (at
 * least three), so code that holds a fence (a Markdown file, a template string) cannot close it early.
 */
export function fenced(code: string, tag = ''): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${tag}\n${code}\n${fence}`;
}

/** A chunk as one line: `startLine-endLine kind Parent.symbol`. */
export function chunkTitle(c: { startLine: number; endLine: number; kind: string; parent: string | null; symbol: string }): string {
  return `${c.startLine}-${c.endLine} ${c.kind} ${c.parent ? `${c.parent}.` : ''}${c.symbol}`;
}

/** Text on one line and at most `maxChars` long (cut with an ellipsis): prose from judges may be long. */
export function clip(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…`;
}

/** A name on one line: control characters and line separators (possible in file names) become `\uXXXX`. */
export function oneLine(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A chunk as the Markdown of a tool result lists it: its place, and its code when the budget bought it. */
export interface ListedChunk {
  readonly startLine: number;
  readonly endLine: number;
  readonly kind: string;
  readonly parent: string | null;
  readonly symbol: string;
  readonly text?: string;
  readonly textTruncated?: true;
}

/**
 * The lines of a file's chunks, by line: a title per chunk, with its code fenced when it has some (marked
 * `(first lines)` when cut). Neighbouring chunks of one symbol without code (parts of a split symbol) are one line;
 * past `maxBare` chunks without code, the rest are counted (the structured content lists them all).
 */
export function chunkLines(chunks: readonly ListedChunk[], o: { tag: string; maxBare: number; bareSuffix?: string }): string[] {
  const lines: string[] = [];
  let bare = 0;
  for (const c of mergeBareParts(chunks)) {
    if (c.text === undefined) {
      bare += 1;
      if (bare <= o.maxBare) lines.push(`- ${chunkTitle(c)}${o.bareSuffix ?? ''}`);
    } else {
      lines.push(`- ${chunkTitle(c)}${c.textTruncated ? ' (first lines)' : ''}`, fenced(c.text, o.tag));
    }
  }
  const more = bare - o.maxBare;
  if (more > 0) lines.push(`- and ${more} more chunk${more === 1 ? '' : 's'}`);
  return lines;
}

/** The chunks by line, with neighbouring chunks of one symbol that carry no code (parts of a split symbol) as one. */
function mergeBareParts(chunks: readonly ListedChunk[]): ListedChunk[] {
  const out: ListedChunk[] = [];
  for (const c of [...chunks].sort((a, b) => a.startLine - b.startLine)) {
    const last = out.at(-1);
    const sameSymbol = last !== undefined && last.symbol === c.symbol && last.kind === c.kind && last.parent === c.parent;
    if (sameSymbol && last.text === undefined && c.text === undefined) out[out.length - 1] = { ...last, endLine: Math.max(last.endLine, c.endLine) };
    else out.push(c);
  }
  return out;
}
