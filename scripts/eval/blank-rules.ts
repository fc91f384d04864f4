/**
 * The blank rules a doc2code header can ask for before indexing, so the corpus no longer holds the text the
 * queries came from. `blank_rule` names a rule by id (`python-docstrings`, `go-doc-comments`); any other
 * `blank_rule` text (the shared sets carry a sentence there) leaves the choice to `blank_jsdoc`.
 */
import { blankJsdoc } from './blank-jsdoc.js';
import { blankGoDocComments } from './go-doc-comments.js';
import { blankPythonDocstrings } from './python-docstrings.js';

/** Ids of the blank rules; `jsdoc` is what `blank_jsdoc: true` asks for. */
export const BLANK_RULES = ['jsdoc', 'python-docstrings', 'go-doc-comments'] as const;
export type BlankRule = (typeof BLANK_RULES)[number];

const BLANKERS: Readonly<Record<BlankRule, (text: string) => string>> = {
  jsdoc: blankJsdoc,
  'python-docstrings': blankPythonDocstrings,
  'go-doc-comments': blankGoDocComments,
};

/** A `blank_rule` value that reads as an id (lower-case words joined by dashes) rather than a description. */
export const BLANK_RULE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The rule a header asks for: the id in `blank_rule` when it is one, else `jsdoc` when `blank_jsdoc` is true,
 * else none. Returns a message instead for an unknown id, or an id other than `jsdoc` next to `blank_jsdoc: true`.
 */
export function resolveBlankRule(blankJsdoc: boolean, blankRule: string | undefined): { rule: BlankRule | null } | { error: string } {
  if (blankRule === undefined || !BLANK_RULE_ID.test(blankRule)) return { rule: blankJsdoc ? 'jsdoc' : null };
  if (!(BLANK_RULES as readonly string[]).includes(blankRule)) return { error: `"blank_rule" "${blankRule}" is unknown; use ${BLANK_RULES.join(', ')}` };
  if (blankJsdoc && blankRule !== 'jsdoc') return { error: `"blank_jsdoc" must be false when "blank_rule" is "${blankRule}"` };
  return { rule: blankRule as BlankRule };
}

/** Applies a blank rule to a file's text; the result has the same length and the same line breaks. */
export function applyBlankRule(rule: BlankRule, text: string): string {
  return BLANKERS[rule](text);
}
