/** Builds the doc2code and commit2files task sets of one repository mirror at its HEAD commit. */
import { existsSync } from 'node:fs';
import type Parser from 'tree-sitter';
import path from 'node:path';
import { compileCorpusFilter, literalPrefix } from '../eval/glob.js';
import { buildCommit2Files, type Commit2FilesCandidate } from './commit2files.js';
import { buildDoc2Code, exportedDeclarations, type Doc2CodeCandidate } from './doc2code.js';
import { headCommit, listTree, logCommits, readBlobs } from './git.js';
import { isJsdocRegexExact, SourceParser } from './parse-source.js';
import { selectCorpus, withoutFiles, type CorpusChoice, type CorpusLimits } from './select-corpus.js';

/** Options of one repository's build. */
export interface RepoBuildOptions {
  readonly repo: string;
  readonly mirrorRoot: string;
  readonly limits: CorpusLimits;
  readonly maxTasks: number;
  readonly maxCommitsScanned: number;
  readonly seed: number;
}

/** What one repository produced; `skipped` says why nothing was built. */
export interface RepoBuild {
  readonly repo: string;
  readonly gitDir: string;
  readonly commit?: string;
  readonly corpus?: CorpusChoice;
  /** Corpus files left out by content (generated, minified-looking, JSDoc regex not exact), with the reason. */
  readonly leftOut?: { path: string; reason: string }[];
  readonly doc2code: Doc2CodeCandidate[];
  readonly doc2codeEligible: number;
  readonly commit2files: Commit2FilesCandidate[];
  readonly commit2filesEligible: number;
  readonly skipped?: string;
}

const MIN_CORPUS_FILES = 5;
/** codescout skips a file with a longer line as minified, so gold there could never be found. */
const MAX_LINE_CHARS = 1000;
const GENERATED_MARKER = /@generated\b|\b(?:file|code) (?:is |was )?(?:auto-?)?generated\b|\bdo not (?:edit|modify)\b/i;
const GENERATED_HEAD_CHARS = 400;

/** Why a corpus file is left out by its content, or null to keep it. */
function leftOutReason(text: string, tree: Parser.Tree | null): string | null {
  if (tree === null) return 'parse timed out';
  if (GENERATED_MARKER.test(text.slice(0, GENERATED_HEAD_CHARS))) return 'generated (marker in its first lines)';
  if (text.split('\n').some((line) => line.length > MAX_LINE_CHARS)) return `a line over ${MAX_LINE_CHARS} chars (indexed as minified)`;
  if (!isJsdocRegexExact(text, tree)) return 'the JSDoc regex finds text other than JSDoc comments';
  return null;
}
/** commit2files tasks are sampled from this many of the newest eligible commits per task wanted. */
const COMMIT_POOL_FACTOR = 4;

/** Deterministic PRNG (mulberry32) seeded from a string. */
function random(seedText: string): () => number {
  let h = 1779033703 ^ seedText.length;
  for (let i = 0; i < seedText.length; i++) h = Math.imul(h ^ seedText.charCodeAt(i), 3432918353), (h = (h << 13) | (h >>> 19));
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Up to `n` items chosen by a seeded shuffle, in their original order. */
export function sample<T>(items: readonly T[], n: number, seedText: string): T[] {
  if (items.length <= n) return [...items];
  const rand = random(seedText);
  const idx = items.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j] as number, idx[i] as number];
  }
  return idx.slice(0, n).sort((a, b) => a - b).map((i) => items[i] as T);
}

/** Mirror location of a repository: `<root>/<owner>+<name>/repo`. */
export function mirrorDir(mirrorRoot: string, repo: string): string {
  return path.join(mirrorRoot, repo.replace('/', '+'), 'repo');
}

/** Builds both task kinds for one repository; never throws for a repository that merely yields nothing. */
export function buildRepo(o: RepoBuildOptions): RepoBuild {
  const gitDir = mirrorDir(o.mirrorRoot, o.repo);
  const empty = { repo: o.repo, gitDir, doc2code: [], doc2codeEligible: 0, commit2files: [], commit2filesEligible: 0 };
  if (!existsSync(gitDir)) return { ...empty, skipped: `no mirror at ${gitDir}` };
  const commit = headCommit(gitDir);
  const tree = listTree(gitDir, commit);
  const chosen = selectCorpus({ repo: o.repo, tree, limits: o.limits });
  if (chosen === null) return { ...empty, commit, skipped: 'no TypeScript or JavaScript source files (other than .d.ts, tests, docs) under a src/source/lib folder' };

  const blobs = readBlobs(gitDir, chosen.files.map((f) => f.blob));
  const parser = new SourceParser();
  const leftOut: { path: string; reason: string }[] = [];
  const declarations = [];
  for (const f of chosen.files) {
    const text = (blobs.get(f.blob) as Buffer).toString('utf8');
    const tree = parser.parse(f.path, text);
    const reason = leftOutReason(text, tree);
    if (reason !== null || tree === null) {
      leftOut.push({ path: f.path, reason: reason ?? 'no tree' });
      continue;
    }
    declarations.push(...exportedDeclarations(f.path, text, tree));
  }
  const corpus = withoutFiles(chosen, leftOut.map((l) => l.path));
  if (corpus.files.length < MIN_CORPUS_FILES) {
    return { ...empty, commit, corpus, leftOut, skipped: `corpus has only ${corpus.files.length} files (minimum ${MIN_CORPUS_FILES})` };
  }
  const d2cAll = buildDoc2Code(declarations);
  const doc2code = sample(d2cAll, o.maxTasks, `${o.seed}:${o.repo}:doc2code`);

  const prefixes = [...new Set(corpus.include.map(literalPrefix))];
  const commits = logCommits({ gitDir, commit, pathspecs: prefixes.includes('') ? [] : prefixes, maxCommits: o.maxCommitsScanned });
  const isCorpusPath = compileCorpusFilter(corpus.include, corpus.exclude);
  const c2fAll = buildCommit2Files({ commits, isCorpusPath, corpusFiles: new Set(corpus.files.map((f) => f.path)) });
  const pool = c2fAll.slice(0, o.maxTasks * COMMIT_POOL_FACTOR);
  const commit2files = sample(pool, o.maxTasks, `${o.seed}:${o.repo}:commit2files`);
  return { repo: o.repo, gitDir, commit, corpus, leftOut, doc2code, doc2codeEligible: d2cAll.length, commit2files, commit2filesEligible: c2fAll.length };
}
