/**
 * commit2files tasks: non-merge commits with a conventional fix/feat/perf/refactor subject that
 * modified 1-5 corpus files in place (no corpus file added, deleted or renamed). The query is the cleaned
 * message; the gold is the set of corpus files the commit modified.
 */
import type { LoggedCommit } from './git.js';

/** A commit2files task before ids are given. */
export interface Commit2FilesCandidate {
  readonly query: string;
  readonly gold: { path: string }[];
  readonly commit: string;
  readonly type: string;
  readonly date: string;
}

const MAX_GOLD_FILES = 5;
const MIN_QUERY_WORDS = 3;
const MAX_QUERY_CHARS = 1200;
const SQUASH_BULLET_MAX_WORDS = 6; // '* ' plus up to five words
const SUBJECT = /^(fix|feat|perf|refactor)(?:\([^)]*\))?!?:\s*(.+)$/i;
const TRAILER = /^[A-Za-z][A-Za-z0-9-]*(?: [A-Za-z][A-Za-z0-9-]*)?:\s/;
const CLOSING = /^(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|see|related(?: to)?|part of)\b[\s:]*(?:[\w.-]+\/[\w.-]+)?#\d+(?:\s*(?:,|and)\s*(?:[\w.-]+\/[\w.-]+)?#\d+)*\.?$/i;

/** Removes URLs, PR/issue references (`(#123)`, `#123`, `owner/repo#123`, `GH-123`) and tidies spaces. */
function stripReferences(line: string): string {
  const ref = '(?:[\\w.-]+\\/[\\w.-]+)?#\\d+';
  return line
    .replace(/\bhttps?:\/\/\S+/g, '')
    .replace(new RegExp(`\\(\\s*(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|see|related to)\\s*${ref}(?:\\s*,\\s*${ref})*\\s*\\)`, 'gi'), '')
    .replace(new RegExp(`\\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\\s*:?\\s*${ref}(?:\\s*(?:,|and)\\s*${ref})*[.,;]?`, 'gi'), '')
    .replace(/\(\s*(?:[\w.-]+\/[\w.-]+)?#\d+(?:\s*,\s*(?:[\w.-]+\/[\w.-]+)?#\d+)*\s*\)/g, '')
    .replace(/(?:[\w.-]+\/[\w.-]+)?#\d+\b/g, '')
    .replace(/\bGH-\d+\b/g, '')
    .replace(/\(\s*\)/g, '')
    .replace(/\b(?:see|refs?)\s*:?\s*$/i, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s+([.,;:])(?=\s|$)/g, '$1')
    .trim();
}

/** Body lines that carry no description: trailers, issue closers, rules, PR-template headings and checklists,
 * and a squash merge's list of its commits' subjects (`* fix(x): ...`, or a short `* add test`). */
function isNoiseLine(t: string): boolean {
  return (
    TRAILER.test(t) ||
    CLOSING.test(t) ||
    /^(?:-+|=+|\*+|This reverts commit \w+\.?)$/.test(t) ||
    /^#{1,6}\s/.test(t) ||
    /^[-*]\s*\[[ xX]\]/.test(t) ||
    /^\*\s+\w+(?:\([^)]*\))?!?:\s/.test(t) ||
    (/^\*\s/.test(t) && t.split(/\s+/).length <= SQUASH_BULLET_MAX_WORDS)
  );
}

/**
 * The query of a commit message: subject without type and scope, a newline, then the body without trailers,
 * issue closers, HTML comments, URLs and references. Null when the subject is not a conventional
 * fix/feat/perf/refactor or too little text is left.
 */
export function cleanCommitMessage(message: string): { type: string; query: string } | null {
  const [subjectLine = '', ...rest] = message.split('\n');
  const m = SUBJECT.exec(subjectLine.trim());
  if (m === null) return null;
  const subject = stripReferences(m[2] as string);
  const bodyLines = rest
    .join('\n')
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => !isNoiseLine(l.trim()))
    .map(stripReferences);
  const body = bodyLines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  let query = body === '' ? subject : `${subject}\n${body}`;
  if (query.length > MAX_QUERY_CHARS) query = query.slice(0, query.lastIndexOf('\n', MAX_QUERY_CHARS) > 0 ? query.lastIndexOf('\n', MAX_QUERY_CHARS) : MAX_QUERY_CHARS).trim();
  if (query.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length < MIN_QUERY_WORDS) return null;
  return { type: (m[1] as string).toLowerCase(), query: query.charAt(0).toUpperCase() + query.slice(1) };
}

/**
 * The commit2files candidates among `commits`. `isCorpusPath` is the corpus's glob filter (a file changed at
 * any time under those globs counts as a corpus file), `corpusFiles` the files present at the snapshot.
 */
export function buildCommit2Files(o: { commits: readonly LoggedCommit[]; isCorpusPath: (p: string) => boolean; corpusFiles: ReadonlySet<string> }): Commit2FilesCandidate[] {
  const out: Commit2FilesCandidate[] = [];
  for (const c of o.commits) {
    const touched = c.changes.filter((ch) => o.isCorpusPath(ch.path));
    if (touched.length === 0 || touched.length > MAX_GOLD_FILES) continue;
    if (touched.some((ch) => ch.status !== 'M' || !o.corpusFiles.has(ch.path))) continue;
    const cleaned = cleanCommitMessage(c.message);
    if (cleaned === null) continue;
    const paths = [...new Set(touched.map((ch) => ch.path))].sort();
    out.push({ query: cleaned.query, gold: paths.map((path) => ({ path })), commit: c.id, type: cleaned.type, date: c.date });
  }
  return out;
}
