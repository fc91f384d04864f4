/**
 * Picks a repository's corpus with generic rules only: source files of one language (TypeScript, or
 * JavaScript when the repository has more JavaScript source than TypeScript) under source roots (`src`,
 * `source`, `lib` folders), without tests, specs, benches, declarations, fixtures, examples, docs, generated or
 * vendored code, capped in files and bytes. The main package's root comes first; the result is expressed as
 * include/exclude globs in the eval README's dialect, and checked to select exactly the chosen files.
 */
import { compileCorpusFilter } from '../eval/glob.js';
import type { TreeFile } from './git.js';

/** Limits of one corpus. */
export interface CorpusLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
  /** A larger file is taken for generated data and left out by a literal exclude glob. */
  readonly maxFileBytes: number;
}

/** A chosen corpus: its globs and the files they select at the snapshot commit. */
export interface CorpusChoice {
  readonly language: 'typescript' | 'javascript';
  readonly include: string[];
  readonly exclude: string[];
  readonly files: TreeFile[];
  readonly bytes: number;
}

const EXTENSIONS = { typescript: ['ts', 'tsx', 'mts', 'cts'], javascript: ['js', 'jsx', 'mjs', 'cjs'] } as const;
const SOURCE_FOLDERS = new Set(['src', 'source', 'lib']);
const EXCLUDED_FOLDERS = [
  'test', 'tests', '__tests__', '__mocks__', '__snapshots__', 'spec', 'specs', 'test-utils', 'type-tests', 'typetests', 'e2e',
  'bench', 'benches', 'benchmark', 'benchmarks', 'fixture', 'fixtures', '__fixtures__', 'example', 'examples', 'demo', 'demos',
  'doc', 'docs', 'website', 'playground', 'playgrounds', 'sandbox', 'scripts', 'dist', 'build', 'coverage', 'node_modules',
  'vendor', 'vendors', 'vendored', 'third_party', 'third-party', 'generated', 'apps', 'site', 'www', 'templates', 'template-*', '__*__', '*fixture*', '.*',
];
const EXCLUDED_NAMES = ['*.d.ts', '*.d.mts', '*.d.cts', '*.test.*', '*.spec.*', '*.bench.*', '*.test-d.*', '*.stories.*', '*.min.js', '*.config.*', '*.generated.*', '*.gen.*'];

/** The generic exclude globs every corpus carries. */
export const GENERIC_EXCLUDES: readonly string[] = [...EXCLUDED_NAMES.map((n) => `**/${n}`), ...EXCLUDED_FOLDERS.map((f) => `**/${f}/**`)];

interface Unit {
  readonly globs: string[]; // include globs (without extension suffix applied yet: `dir/**/*.` or `dir/*.`)
  readonly files: TreeFile[];
  readonly bytes: number;
  readonly children: () => Unit[];
}

function unitOf(dir: string, files: TreeFile[], deep: boolean): Unit {
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  const globs = [deep ? `${dir}/**/*.` : `${dir}/*.`];
  return { globs, files, bytes, children: () => (deep ? splitDir(dir, files) : []) };
}

/** A folder's loose files as one unit, then one unit per subfolder, in path order. */
function splitDir(dir: string, files: TreeFile[]): Unit[] {
  const loose = files.filter((f) => !f.path.slice(dir.length + 1).includes('/'));
  const bySub = new Map<string, TreeFile[]>();
  for (const f of files) {
    const rest = f.path.slice(dir.length + 1);
    const slash = rest.indexOf('/');
    if (slash < 0) continue;
    const sub = `${dir}/${rest.slice(0, slash)}`;
    bySub.set(sub, [...(bySub.get(sub) ?? []), f]);
  }
  const units = loose.length > 0 ? [unitOf(dir, loose, false)] : [];
  for (const sub of [...bySub.keys()].sort()) units.push(unitOf(sub, bySub.get(sub) as TreeFile[], true));
  return units;
}

/** The source root of a path: up to its first `src`/`source`/`lib` folder, or null. */
function sourceRoot(path: string): string | null {
  const segments = path.split('/');
  const i = segments.slice(0, -1).findIndex((s) => SOURCE_FOLDERS.has(s));
  return i < 0 ? null : segments.slice(0, i + 1).join('/');
}

/** True for the main package's root: a top-level source folder, or one inside a folder named like the repository. */
function isMainRoot(root: string, repoName: string): boolean {
  const segments = root.split('/');
  const parent = segments.at(-2)?.toLowerCase();
  const name = repoName.toLowerCase();
  return segments.length === 1 || parent === name || parent === `${name}-core` || (parent === 'core' && segments.length === 3);
}

/**
 * Chooses the corpus of a repository at one commit.
 * @returns null when no source root holds a file of the chosen language.
 */
export function selectCorpus(o: { repo: string; tree: readonly TreeFile[]; limits: CorpusLimits }): CorpusChoice | null {
  const generic = compileCorpusFilter(['**'], GENERIC_EXCLUDES);
  const bigExcludes = o.tree.filter((f) => f.bytes > o.limits.maxFileBytes).map((f) => f.path);
  const big = new Set(bigExcludes);
  const source = o.tree.filter((f) => generic(f.path) && sourceRoot(f.path) !== null && !big.has(f.path));
  const count = (exts: readonly string[]): number => source.filter((f) => exts.some((e) => f.path.endsWith(`.${e}`))).length;
  const language = count(EXTENSIONS.typescript) >= count(EXTENSIONS.javascript) ? 'typescript' : 'javascript';
  const exts: readonly string[] = EXTENSIONS[language];
  const candidates = source.filter((f) => exts.some((e) => f.path.endsWith(`.${e}`)));
  if (candidates.length === 0) return null;

  const byRoot = new Map<string, TreeFile[]>();
  for (const f of candidates) {
    const root = sourceRoot(f.path) as string;
    byRoot.set(root, [...(byRoot.get(root) ?? []), f]);
  }
  const repoName = o.repo.split('/')[1] ?? '';
  const roots = [...byRoot.keys()].sort((a, b) => {
    const main = Number(isMainRoot(b, repoName)) - Number(isMainRoot(a, repoName));
    const size = (byRoot.get(b)?.length ?? 0) - (byRoot.get(a)?.length ?? 0);
    return main || size || (a < b ? -1 : 1);
  });

  const chosen: Unit[] = [];
  let files = 0;
  let bytes = 0;
  const fits = (u: Unit): boolean => files + u.files.length <= o.limits.maxFiles && bytes + u.bytes <= o.limits.maxBytes;
  const take = (u: Unit): void => {
    chosen.push(u);
    files += u.files.length;
    bytes += u.bytes;
  };
  // The main roots may be split into folders to fill the cap; other roots are taken whole or not at all.
  const fill = (u: Unit, split: boolean): void => {
    if (fits(u)) take(u);
    else if (split) for (const child of u.children()) fill(child, true);
  };
  for (const root of roots) fill(unitOf(root, byRoot.get(root) as TreeFile[], true), isMainRoot(root, repoName) || chosen.length === 0);
  if (chosen.length === 0) return null;

  const extsOf = (u: Unit): string[] => exts.filter((e) => u.files.some((f) => f.path.endsWith(`.${e}`)));
  const include = chosen.flatMap((u) => u.globs.flatMap((g) => extsOf(u).map((e) => `${g}${e}`)));
  const selected = new Set(chosen.flatMap((u) => u.files.map((f) => f.path)));
  const exclude = [...GENERIC_EXCLUDES, ...bigExcludes.filter((p) => compileCorpusFilter(include, GENERIC_EXCLUDES)(p))];
  return finalize({ language, include, exclude, tree: o.tree, expected: selected });
}

/** Builds the choice from the globs alone and checks that they select exactly the expected files. */
function finalize(o: { language: CorpusChoice['language']; include: string[]; exclude: string[]; tree: readonly TreeFile[]; expected: Set<string> }): CorpusChoice {
  const keep = compileCorpusFilter(o.include, o.exclude);
  const files = o.tree.filter((f) => keep(f.path));
  const extra = files.filter((f) => !o.expected.has(f.path));
  if (extra.length > 0 || files.length !== o.expected.size) {
    throw new Error(`corpus globs select ${files.length} files, expected ${o.expected.size} (e.g. ${extra.slice(0, 3).map((f) => f.path).join(', ')})`);
  }
  return { language: o.language, include: o.include, exclude: o.exclude, files, bytes: files.reduce((n, f) => n + f.bytes, 0) };
}

/** The same choice with more files left out by literal exclude globs (files the JSDoc regex would blank wrongly). */
export function withoutFiles(choice: CorpusChoice, paths: readonly string[]): CorpusChoice {
  if (paths.length === 0) return choice;
  const drop = new Set(paths);
  const expected = new Set(choice.files.filter((f) => !drop.has(f.path)).map((f) => f.path));
  return finalize({ language: choice.language, include: choice.include, exclude: [...choice.exclude, ...paths], tree: choice.files, expected });
}
