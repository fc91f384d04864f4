import type { Language } from '../../types.js';
import { go } from './go.js';
import type { LanguageSpec } from './language-spec.js';
import { python } from './python.js';
import { javascript, tsx, typescript } from './typescript.js';
// (more languages: one import per spec file, kept in alphabetical order)
import { swift } from './swift.js';
import { bash } from './bash.js';
import { php } from './php.js';
import { ruby } from './ruby.js';
import { scala } from './scala.js';
import { c } from './c.js';
import { cpp } from './cpp.js';
import { kotlin } from './kotlin.js';
import { csharp } from './csharp.js';
import { java } from './java.js';
import { rust } from './rust.js';

export type { DefinitionRule, LanguageSpec } from './language-spec.js';

/** The languages parsed with tree-sitter, and their specs (one file per language in this folder). */
export const TREE_SITTER_LANGUAGES: Readonly<Partial<Record<Language, LanguageSpec>>> = {
  typescript,
  tsx,
  javascript,
  jsx: javascript,
  python,
  go,
  rust,
  java,
  csharp,
  kotlin,
  c,
  cpp,
  scala,
  ruby,
  php,
  bash,
  swift,
  // (more languages: one entry per spec)
};
