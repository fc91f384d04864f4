import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { ConfigError } from '../errors.js';
import { readTextInsideRootSync } from './open-regular-file.js';

/** Directory names never walked, at any depth. */
export const DEFAULT_IGNORED_DIRS: readonly string[] = [
  '.git', '.hg', '.svn', 'node_modules', 'bower_components', 'index-cache', 'dist', 'build', 'out',
  'coverage', '.nyc_output', '.next', '.nuxt', '.svelte-kit', '.output', '.turbo', '.cache',
  '.parcel-cache', '.vercel', '.yarn', '.pnpm-store', '.venv', 'venv', '__pycache__', '.mypy_cache',
  '.pytest_cache', '.tox', 'target', '.gradle', '.idea',
];

/** Default-ignored folders an include glob can never bring back: version control and indexes. */
const NEVER_REINCLUDED = new Set(['.git', '.hg', '.svn', 'index-cache']);

/** Ignore files read in every directory, lowest precedence first. */
const IGNORE_FILE_NAMES = ['.gitignore', '.codescoutignore'];

/** Options of `createPathFilter`. */
export interface PathFilterOptions {
  /** Globs (picomatch, relative POSIX paths); when non-empty a file must match one. */
  readonly include?: readonly string[];
  /** Globs of files and directories to leave out. */
  readonly exclude?: readonly string[];
  /** More directory names (or relative directory paths) to skip, on top of the defaults. */
  readonly extraIgnoreDirs?: readonly string[];
  /**
   * Absolute folders never indexed, however they are named (the active cache dir and index folder). A folder that
   * is the root or above it is left out of this rule.
   */
  readonly excludeDirs?: readonly string[];
}

/** Decides whether a relative path is left out of the index; reusable by the watcher. */
export interface PathFilter {
  /** True when the relative POSIX path (no leading `./`) is ignored; `isDir` for directories. */
  isIgnored(relPath: string, isDir: boolean): boolean;
  /** Drops cached ignore files so edits to any `.gitignore` take effect. */
  reloadIgnoreFiles(): void;
}

type Matcher = (path: string) => boolean;

/**
 * Compiles picomatch globs into one matcher (null for none).
 * @throws ConfigError naming the option for an empty or malformed glob.
 */
export function compileGlobs(globs: readonly string[] | undefined, option: string): Matcher | null {
  if (globs === undefined || globs.length === 0) return null;
  const matchers = globs.map((glob) => {
    if (typeof glob !== 'string' || glob.trim() === '') {
      throw new ConfigError(`${option} contains an empty glob. Remove it or give a pattern like "src/**/*.ts".`, option);
    }
    try {
      picomatch.makeRe(glob, { dot: true, strictBrackets: true });
      return picomatch(glob, { dot: true });
    } catch (error) {
      throw new ConfigError(`${option} glob "${glob}" is malformed: ${(error as Error).message}. Fix or remove it.`, option, { cause: error });
    }
  });
  return (path) => matchers.some((match) => match(path));
}

function readIgnoreFile(realRoot: string | null, path: string): string | null {
  if (realRoot === null) return null;
  const text = readTextInsideRootSync({ realRoot, absPath: path });
  // Missing is the common case. An unreadable ignore file (or a FIFO, or a link out of the root) also means
  // "no rules here": one bad dot-file must not stop discovery, and git itself skips ignore files it cannot read.
  return typeof text === 'string' ? text : null;
}

function realRootOf(root: string): string | null {
  try {
    return realpathSync.native(root);
  } catch {
    return null; // a missing root has no ignore files; discovery reports the root itself
  }
}

/** `dirs` as root-relative POSIX paths, both as written and with links resolved; folders outside the root are dropped. */
function excludeDirPaths(root: string, realRoot: string | null, dirs: readonly string[]): Set<string> {
  const paths = new Set<string>();
  const add = (from: string, dir: string): void => {
    const rel = relative(from, dir);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) paths.add(rel.split(sep).join('/'));
  };
  for (const dir of dirs) {
    add(root, dir);
    if (realRoot === null) continue;
    try {
      add(realRoot, realpathSync.native(dir));
    } catch {
      // Not created yet: nothing in it to leave out, and its written path is covered above.
    }
  }
  return paths;
}

/**
 * Builds the ignore predicate for a root: default ignored directories, `extraIgnoreDirs`,
 * `excludeDirs`, `.git/info/exclude`, every `.gitignore` and `.codescoutignore` (each relative to its own directory,
 * deeper files override shallower ones), then `exclude` and `include` globs.
 * Throws ConfigError naming the option when a glob is malformed.
 */
export function createPathFilter(root: string, options: PathFilterOptions = {}): PathFilter {
  const include = compileGlobs(options.include, 'include');
  const exclude = compileGlobs(options.exclude, 'exclude');
  const ignoredNames = new Set(DEFAULT_IGNORED_DIRS);
  // An include glob that names a default-ignored folder (`dist/**`, `packages/app/build/*.js`) brings it back.
  const includeBases = (options.include ?? []).map((g) => picomatch.scan(g).base.replace(/\/+$/, '')).filter((b) => b !== '');
  const isReincluded = (dir: string): boolean =>
    !NEVER_REINCLUDED.has(dir.slice(dir.lastIndexOf('/') + 1)) && includeBases.some((b) => b === dir || b.startsWith(`${dir}/`));
  const ignoredDirPaths = new Set<string>();
  for (const dir of options.extraIgnoreDirs ?? []) {
    const clean = dir.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
    if (clean.includes('/')) ignoredDirPaths.add(clean);
    else if (clean !== '') ignoredNames.add(clean);
  }
  const realRoot = realRootOf(root);
  for (const dir of excludeDirPaths(root, realRoot, options.excludeDirs ?? [])) ignoredDirPaths.add(dir);
  /** Rules per directory ('' = root); null when the directory has no ignore file. */
  const rulesByDir = new Map<string, Ignore | null>();
  /** Verdicts for directories already tested, so a deep path costs one lookup per ancestor. */
  const dirVerdicts = new Map<string, boolean>();

  function rulesOf(dir: string): Ignore | null {
    const cached = rulesByDir.get(dir);
    if (cached !== undefined) return cached;
    const absDir = dir === '' ? root : join(root, dir);
    const texts: string[] = [];
    if (dir === '') {
      const exclude = readIgnoreFile(realRoot, join(root, '.git', 'info', 'exclude'));
      if (exclude !== null) texts.push(exclude);
    }
    for (const name of IGNORE_FILE_NAMES) {
      const text = readIgnoreFile(realRoot, join(absDir, name));
      if (text !== null) texts.push(text);
    }
    const rules = texts.length === 0 ? null : ignore().add(texts.join('\n'));
    rulesByDir.set(dir, rules);
    return rules;
  }

  /** Applies the ignore files of `relPath`'s ancestors, root first; the deepest verdict wins. */
  function ignoredByRules(relPath: string, isDir: boolean): boolean {
    let ignored = false;
    let dirEnd = -1;
    do {
      const dir = dirEnd === -1 ? '' : relPath.slice(0, dirEnd);
      const rules = rulesOf(dir);
      if (rules !== null) {
        const rest = relPath.slice(dirEnd + 1);
        const verdict = rules.test(isDir ? `${rest}/` : rest);
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      dirEnd = relPath.indexOf('/', dirEnd + 1);
    } while (dirEnd !== -1);
    return ignored;
  }

  function isDirIgnored(dir: string): boolean {
    const cached = dirVerdicts.get(dir);
    if (cached !== undefined) return cached;
    const slash = dir.lastIndexOf('/');
    const name = dir.slice(slash + 1);
    const verdict =
      (slash !== -1 && isDirIgnored(dir.slice(0, slash))) ||
      (ignoredNames.has(name) && !isReincluded(dir)) ||
      ignoredDirPaths.has(dir) ||
      (exclude !== null && exclude(dir)) ||
      ignoredByRules(dir, true);
    dirVerdicts.set(dir, verdict);
    return verdict;
  }

  return {
    isIgnored(relPath, isDir) {
      if (relPath === '' || relPath === '.') return false;
      if (isDir) return isDirIgnored(relPath);
      const slash = relPath.lastIndexOf('/');
      if (slash !== -1 && isDirIgnored(relPath.slice(0, slash))) return true;
      if (exclude !== null && exclude(relPath)) return true;
      if (include !== null && !include(relPath)) return true;
      return ignoredByRules(relPath, false);
    },
    reloadIgnoreFiles() {
      rulesByDir.clear();
      dirVerdicts.clear();
    },
  };
}
