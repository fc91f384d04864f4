/**
 * The eval README's glob dialect, nothing more: `**` as a whole segment matches any number of directories
 * (also none), `*` and `?` match within one segment, every other character is literal. picomatch is not used
 * because it treats braces, brackets, extglobs and dot files specially, and the corpus must match the
 * dataset generator's file list exactly.
 */

const REGEX_SPECIAL = /[\\^$.|+()[\]{}]/g;

/** The regex source of one segment that is not `**`. */
function segmentSource(segment: string): string {
  let out = '';
  for (const ch of segment) {
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else out += ch.replace(REGEX_SPECIAL, '\\$&');
  }
  return out;
}

/**
 * Compiles one glob over repo-relative POSIX paths into an anchored RegExp.
 * @example globToRegExp('src/**\/*.ts').test('src/a/b.ts') // true
 */
export function globToRegExp(glob: string): RegExp {
  const segments = glob.split('/');
  let source = '';
  segments.forEach((segment, i) => {
    const isLast = i === segments.length - 1;
    if (segment === '**') {
      // Middle or leading `**/`: zero or more whole directories. Trailing `/**`: one or more segments below.
      source += isLast ? '[^/]+(?:/[^/]+)*' : '(?:[^/]+/)*';
    } else {
      source += segmentSource(segment) + (isLast ? '' : '/');
    }
  });
  return new RegExp(`^${source}$`);
}

/** Include/exclude globs compiled into one predicate. */
export interface CorpusFilter {
  (relPath: string): boolean;
}

/** A path is kept when it matches at least one include glob and no exclude glob. */
export function compileCorpusFilter(include: readonly string[], exclude: readonly string[]): CorpusFilter {
  const inc = include.map(globToRegExp);
  const exc = exclude.map(globToRegExp);
  return (relPath) => inc.some((re) => re.test(relPath)) && !exc.some((re) => re.test(relPath));
}

/**
 * The literal leading directories of a glob (segments before the first one holding `*` or `?`), e.g.
 * `packages/*\/src/**` -> `packages`. Every path the glob matches lies below it; '' means "anywhere".
 */
export function literalPrefix(glob: string): string {
  const segments = glob.split('/');
  const literal: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?]/.test(segment)) break;
    literal.push(segment);
  }
  return literal.join('/');
}
