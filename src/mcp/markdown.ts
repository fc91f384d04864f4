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
