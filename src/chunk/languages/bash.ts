import type { LanguageSpec } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules } from './rule-classifier.js';
import { SHELL_COMMANDS } from './reference-patterns.js';

/**
 * Bash: function definitions (`f() { ... }` and `function f { ... }`) with their `#` comments glued; every other
 * statement (variables, `source`, the main script) is module code, the shebang included.
 */
export const bash: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-bash'),
  leading: new Set(['comment']),
  comments: new Set(['comment']),
  references: [SHELL_COMMANDS],
  classify: classifyByRules({
    imports: new Set(),
    definitions: {
      function_definition: { kind: 'function' },
    },
  }),
};
