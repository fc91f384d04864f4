/** Prefix of a missing-context entry that names a definition. */
export const DEFINITION_GAP = 'definition of ';

/** Relevance given to a file that defines what a high-relevance file uses ("related patterns or types" band). */
export const DEFINITION_RELEVANCE = 0.55;

/** The symbol a definition gap names, or null for other gaps. */
export function definitionName(gap: string): string | null {
  return gap.startsWith(DEFINITION_GAP) ? gap.slice(DEFINITION_GAP.length) : null;
}

/** A file's state as gap resolution sees it. */
export interface GapFile {
  path: string;
  relevance: number;
  reason: string;
  missingContext: string[];
  /** Set when gap-following raised the file: context for an answer (a definition it uses, a user of it), not an answer. */
  role?: 'context';
}

/**
 * Follows definition gaps of high-relevance files: a definition whose file is already evaluated is resolved
 * (that file is raised to the related band if it scored lower, with a reason saying why) and dropped from
 * missing context; one whose file has not been seen is a critical gap, returned for a direct lookup.
 * Mutates the files it is given.
 */
export async function resolveDefinitionGaps(o: {
  files: ReadonlyMap<string, GapFile>;
  highThreshold: number;
  definitionPaths: (names: readonly string[]) => Promise<Map<string, string[]>>;
}): Promise<{ critical: string[]; promoted: string[] }> {
  const high = [...o.files.values()].filter((f) => f.relevance >= o.highThreshold);
  const names = [...new Set(high.flatMap((f) => f.missingContext.map(definitionName).filter((n): n is string => n !== null)))];
  if (names.length === 0) return { critical: [], promoted: [] };
  const where = await o.definitionPaths(names);
  const critical = new Set<string>();
  const promoted: string[] = [];
  for (const user of high) {
    user.missingContext = user.missingContext.filter((gap) => {
      const name = definitionName(gap);
      if (name === null) return true;
      const paths = (where.get(name) ?? []).filter((p) => p !== user.path);
      const seen = paths.map((p) => o.files.get(p)).filter((f): f is GapFile => f !== undefined);
      if (seen.length === 0) {
        if (paths.length > 0) critical.add(name);
        return paths.length > 0;
      }
      const best = seen.sort((a, b) => b.relevance - a.relevance)[0]!;
      if (best.relevance < DEFINITION_RELEVANCE) {
        best.relevance = DEFINITION_RELEVANCE;
        best.role = 'context';
        best.reason = `Defines ${name}, which ${user.path} uses. ${best.reason}`;
        promoted.push(best.path);
      }
      return false;
    });
  }
  return { critical: [...critical], promoted };
}

/** Relevance given to a file that uses what a high-relevance file defines (registers it, calls it). */
export const USAGE_RELEVANCE = 0.5;

/** Symbol kinds whose names are worth following to their users. */
const FOLLOWED_KINDS = new Set(['function', 'class', 'interface', 'type', 'enum', 'const', 'namespace']);

/** Names defined by high-relevance chunks that are distinctive enough to look for their users. */
export function definedNames(chunks: ReadonlyArray<{ symbol: string; kind: string }>, limit = 8): string[] {
  return [...new Set(chunks.filter((c) => FOLLOWED_KINDS.has(c.kind) && c.symbol.length >= 4 && c.symbol !== 'default').map((c) => c.symbol))].slice(0, limit);
}

/**
 * Raises files that use a name defined by a high-relevance file (a call, a construction, a type reference)
 * to the related band, saying which name and where it comes from. Mutates the files it is given.
 */
export function resolveUsages(o: {
  files: ReadonlyArray<GapFile & { texts: readonly string[] }>;
  names: ReadonlyMap<string, string>;
  highThreshold: number;
}): string[] {
  if (o.names.size === 0) return [];
  const pattern = new RegExp(`(?<![\\w$.])(${[...o.names.keys()].map(escapeRegExp).join('|')})\\s*(?:<[^<>()]*>)?\\s*\\(|(?:new|extends|implements|:)\\s*(${[...o.names.keys()].map(escapeRegExp).join('|')})\\b`);
  const promoted: string[] = [];
  for (const f of o.files) {
    if (f.relevance >= USAGE_RELEVANCE) continue;
    for (const text of f.texts) {
      const m = text.match(pattern);
      const name = m?.[1] ?? m?.[2];
      const from = name ? o.names.get(name) : undefined;
      if (!name || !from || from === f.path) continue;
      f.relevance = USAGE_RELEVANCE;
      f.role = 'context';
      f.reason = `Uses ${name} from ${from}. ${f.reason}`;
      promoted.push(f.path);
      break;
    }
  }
  return promoted;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
