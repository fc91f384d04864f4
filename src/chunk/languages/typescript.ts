import type { LanguageSpec } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyMember, classifyStatement, LEADING } from './script-classify.js';

function spec(grammar: () => unknown): LanguageSpec {
  return {
    grammar,
    leading: LEADING,
    comments: new Set(['comment']),
    // Named imports, where a chunk keeps them (imports are dropped from symbol chunks).
    references: [/import\s+(?:type\s+)?\{([^}]*)\}/g],
    classify: (node, container, ctx) =>
      container.isClass ? classifyMember(node, container.memberParent ?? container.name, ctx) : classifyStatement(node, container.memberParent, ctx),
  };
}

export const typescript = spec(() => (loadGrammar('tree-sitter-typescript') as { typescript: unknown }).typescript);
export const tsx = spec(() => (loadGrammar('tree-sitter-typescript') as { tsx: unknown }).tsx);
export const javascript = spec(() => loadGrammar('tree-sitter-javascript'));
