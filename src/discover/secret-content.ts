import { extensionOf } from './languages-by-extension.js';

// Content rules: secrets in the text of a file that would otherwise be indexed. Two kinds:
//  - token shapes that only secrets have (a PEM private-key block with its body, provider key prefixes followed by
//    random-looking characters), checked in every file, code included: `new Stripe('sk_live_...')` is a leak too;
//  - assignments of a literal to a password/secret/token key, checked only in configuration files (settings.py,
//    application.properties, docker-compose.yml, ...): in code, `password = "..."` is mostly a test or a label.
// False positives cost a file missing from the index (and `codescout.json` can allow it back); false negatives
// cost a secret in plain text in the index, so shapes are strict and placeholders are let through.

/** One content rule: its name (the reason shown), a global pattern, and a check of each match. */
interface ContentRule {
  readonly rule: string;
  readonly pattern: RegExp;
  /** Whether the match (group 1 when the pattern has one) is a real secret rather than a placeholder. */
  readonly isSecret?: (value: string) => boolean;
}

/** At least one digit, one upper and one lower case letter: random key material, not `xxxx` or a word. */
function looksRandom(value: string): boolean {
  return /\d/.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value);
}

/** Rules checked in every file. */
const TOKEN_RULES: readonly ContentRule[] = [
  {
    // The BEGIN line followed by key material (after optional PEM headers): a parser's literal header is not a key.
    rule: 'private key block',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:\s|\\[rn])*(?:[A-Za-z-]+: [^\n\\]*(?:\s|\\[rn])+)*[A-Za-z0-9+/=]{40}/g,
  },
  // AWS documents AKIAIOSFODNN7EXAMPLE; it appears in code and docs everywhere.
  { rule: 'AWS access key id', pattern: /\b((?:AKIA|ASIA)[0-9A-Z]{16})\b/g, isSecret: (v) => !v.endsWith('EXAMPLE') },
  { rule: 'GitHub token', pattern: /\b((?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,}))\b/g, isSecret: looksRandom },
  { rule: 'GitLab token', pattern: /\b(glpat-[A-Za-z0-9_-]{20,})/g, isSecret: looksRandom },
  { rule: 'npm token', pattern: /\b(npm_[A-Za-z0-9]{36})\b/g, isSecret: looksRandom },
  { rule: 'Slack token', pattern: /\b(xox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{10,})/g, isSecret: looksRandom },
  { rule: 'Slack webhook URL', pattern: /hooks\.slack\.com\/services\/(T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,})/g, isSecret: looksRandom },
  { rule: 'Stripe live key', pattern: /\b((?:sk|rk)_live_[A-Za-z0-9]{20,})/g, isSecret: looksRandom },
  { rule: 'Google API key', pattern: /\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/g, isSecret: looksRandom },
  // OpenAI (sk-..., sk-proj-...) and Anthropic (sk-ant-...) keys; kebab-case names (`sk-fading-circle`) are not random.
  { rule: 'API key (sk-...)', pattern: /\b(sk-(?:proj-|svcacct-|admin-|ant-)?[A-Za-z0-9_-]{40,})/g, isSecret: looksRandom },
];

/** Key names that hold a secret when they end the key (`DB_PASSWORD`, `SECRET_KEY`, `api.token`, not `password_min_length`). */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*?(?:password|passwd|pwd|secret|secret[_.-]?key|token|api[_.-]?key|access[_.-]?key|private[_.-]?key|auth[_.-]?key)`;

/** `KEY: value`, `KEY=value`, `"key": "value"`, `- KEY=value` (compose), `KEY = 'value'` (settings.py), at a line start or after `{`/`,`. */
function assignmentRule(value: string): ContentRule {
  const pattern = new RegExp(String.raw`(?:^|[{,])[ \t]*(?:-[ \t]*)?["']?${SECRET_KEY}["']?[ \t]*[:=][ \t]*(${value})`, 'gim');
  return { rule: 'password assignment', pattern, isSecret: isLiteralSecret };
}

const QUOTED = String.raw`"[^"\n]*"|'[^'\n]*'`;

/** Rules shared by every configuration format. */
const CONNECTION_RULES: readonly ContentRule[] = [
  { rule: 'password in a connection string', pattern: /(?:^|[;"'\s])(?:password|pwd)[ \t]*=[ \t]*([^;"'\s]+)/gim, isSecret: isLiteralSecret },
  { rule: 'password in a URL', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/'"]+:([^\s@/'"]+)@[^\s'"]/gi, isSecret: isLiteralSecret },
];

/** Rules of configuration formats (.properties, YAML, JSON, TOML, INI, .env, XML): values may go unquoted. */
const CONFIG_RULES: readonly ContentRule[] = [
  assignmentRule(String.raw`${QUOTED}|[^\s#;,]+`),
  {
    rule: 'password element',
    pattern: new RegExp(String.raw`<(?:[\w.-]+:)?${SECRET_KEY}>([^<\n]+)</`, 'gi'),
    isSecret: isLiteralSecret,
  },
  ...CONNECTION_RULES,
];

/** Rules of Python settings modules: only a quoted literal is a value (`os.environ[...]` is a lookup). */
const PYTHON_CONFIG_RULES: readonly ContentRule[] = [assignmentRule(QUOTED), ...CONNECTION_RULES];

/** Values that stand for a secret rather than being one. */
const PLACEHOLDER = /example|change[_-]?me|placeholder|your[_-]|dummy|redacted|replace|xxxx|\*\*\*|<|>|\$\{|\{\{|\}\}|%\(/i;

/**
 * True when an assigned value is a literal secret of reasonable length: 8+ characters without spaces, not a
 * reference (`${DB_PASSWORD}`, `$VAR`, `{{ vault }}`, `!vault`, `ENC(...)`), not a path, not a placeholder, and
 * random-looking (a digit or a symbol) unless long (16+): `Passwort` is a label in a translation file.
 */
export function isLiteralSecret(raw: string): boolean {
  const quoted = /^(["']).*\1$/s.test(raw);
  const value = quoted ? raw.slice(1, -1) : raw;
  if (value.length < 8 || /\s/.test(value)) return false;
  if (/^[$!@/[{]|^\.\.?\/|^ENC\(|^(?:true|false|null|none|undefined)$/i.test(value)) return false;
  if (!quoted && /^[\w.]+\(.*\)$/.test(value)) return false; // a call: `env(DB_PASSWORD)`
  if (PLACEHOLDER.test(value) || /^(.)\1*$/.test(value)) return false;
  return value.length >= 16 || /[^A-Za-z]/.test(value);
}

/** Configuration formats where a key = value line is configuration, not code. */
const CONFIG_EXTENSIONS: ReadonlySet<string> = new Set([
  'properties', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'env', 'json', 'jsonc', 'json5', 'xml',
]);

/** The content rules of a file: token shapes everywhere; assignments in configuration files. */
function rulesFor(relPath: string): readonly ContentRule[] {
  const lower = relPath.toLowerCase();
  const ext = extensionOf(lower);
  if (CONFIG_EXTENSIONS.has(ext)) return [...TOKEN_RULES, ...CONFIG_RULES];
  if (isPythonSettings(lower)) return [...TOKEN_RULES, ...PYTHON_CONFIG_RULES];
  return TOKEN_RULES;
}

/** True for Python settings modules: `settings.py`, `local_settings.py`, `config.py`, `secrets.py`, `settings/prod.py`. */
function isPythonSettings(lower: string): boolean {
  if (extensionOf(lower) !== 'py') return false;
  const parts = lower.split('/');
  const stem = parts[parts.length - 1]!.slice(0, -'.py'.length);
  const folder = parts.length > 1 ? parts[parts.length - 2] : '';
  return /settings|config|^secrets?$/.test(stem) || folder === 'settings' || folder === 'config';
}

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function firstSecret(text: string, rules: readonly ContentRule[]): { rule: string; offset: number } | null {
  let best: { rule: string; offset: number } | null = null;
  for (const { rule, pattern, isSecret } of rules) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (best !== null && m.index >= best.offset) break;
      if (isSecret === undefined || isSecret(m[1] ?? m[0])) {
        best = { rule, offset: m.index };
        break;
      }
      if (m[0] === '') pattern.lastIndex += 1;
    }
  }
  return best;
}

/**
 * The `secret: <rule> (line N)` reason for the first secret in a file's text, or null when none is found. The
 * reason names the rule and the line, never the secret. Linear in the text (every pattern starts with a literal
 * or an anchor).
 */
export function secretContentReason(relPath: string, text: string): string | null {
  const found = firstSecret(text, rulesFor(relPath));
  return found === null ? null : `secret: ${found.rule} (line ${lineAt(text, found.offset)})`;
}
