/** The JSDoc finder the eval README prescribes: `/**` not followed by `/`, up to the first `*\/`. */
export const JSDOC_PATTERN = /\/\*\*(?!\/)[\s\S]*?\*\//g;

/**
 * Replaces every character of each JSDoc comment except newlines with a space, so the file keeps its line
 * count and every line number. Plain block comments and line comments stay.
 */
export function blankJsdoc(text: string): string {
  return text.replace(JSDOC_PATTERN, (comment) => comment.replace(/[^\n]/g, ' '));
}
