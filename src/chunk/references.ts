import type { Language } from '../types.js';
import { TREE_SITTER_LANGUAGES } from './languages/index.js';

/**
 * What every language shares: free calls and constructors; type names after `:`, `extends`, `implements`, `<`, `|`,
 * `->`; and compound names in quotes (`'billing.open_balances'`, `"getUser"`): RPC methods, task and event names,
 * the way code in one language names a function of a service written in another.
 */
const SHARED: readonly RegExp[] = [
  /(?<![.\w$])(?:new\s+)?([A-Za-z_$][\w$]{2,})\s*(?:<[^<>()]*>)?\s*\(/g,
  /(?::|extends|implements|<|\||->)\s*([A-Z][\w$]{2,})/g,
  /['"`](?:[\w-]+[./:])*([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+)['"`]/g,
];

/** Words that look like calls in most languages but never name a definition of the code base. */
const NOT_DEFINITIONS = new Set([
  'if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'typeof', 'super', 'require', 'import', 'sizeof', 'elif', 'print',
  'Promise', 'Array', 'Object', 'String', 'Number', 'Boolean', 'Error', 'Map', 'Set', 'JSON', 'Math', 'Date', 'RegExp', 'Symbol',
  'self', 'this', 'None', 'True', 'False', 'nil', 'null', 'func', 'defer', 'match', 'when', 'fn', 'def', 'end', 'then', 'else',
]);

/**
 * Names a piece of code uses that may be defined elsewhere in the code base: calls, constructors, type names
 * and the language's own forms (qualified calls and paths). Not filtered by the index: callers keep the names it defines.
 */
export function referencedNames(language: Language | null, text: string): string[] {
  const names = new Set<string>();
  const extra = language === null ? undefined : TREE_SITTER_LANGUAGES[language]?.references;
  for (const pattern of [...SHARED, ...(extra ?? [])]) {
    for (const match of text.matchAll(pattern)) {
      for (const group of match.slice(1)) {
        // A group may hold a list (`{ a, type B, c as d }`): each entry's own name counts.
        for (const entry of group?.split(',') ?? []) {
          const name = entry.trim().split(/\s+as\s+/)[0]!.replace(/^type\s+/, '');
          if (name.length > 2 && !NOT_DEFINITIONS.has(name)) names.add(name);
        }
      }
    }
  }
  return [...names];
}
