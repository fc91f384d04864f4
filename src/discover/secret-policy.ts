import { compileGlobs } from './path-filter.js';
import { secretContentReason } from './secret-content.js';
import { secretNameReason } from './secret-names.js';

/**
 * Which files are kept out of the index as secrets: the name rules (`.env`, `*.pem`, `id_rsa`, `credentials.json`,
 * ...) and the content rules (private-key blocks, provider token shapes, password assignments in configuration
 * files), minus the files an allow-list lets through. Every reason starts with `secret: ` and names the rule.
 */
export interface SecretPolicy {
  /** The reason a file is a secret by its name, or null (also null for an allowed file). */
  reasonForName(relPath: string): string | null;
  /** The reason a file's text holds a secret, or null (also null for an allowed file). */
  reasonForText(relPath: string, text: string): string | null;
}

/** Options of {@link createSecretPolicy}. */
export interface SecretPolicyOptions {
  /** Globs (picomatch, root-relative POSIX paths) of files indexed even when a rule matches them. */
  readonly allow?: readonly string[];
  /** Names the setting in error messages, e.g. `secrets.allow in /repo/codescout.json`. */
  readonly allowOption?: string;
}

/**
 * The secret policy of an index. With no allow-list every rule applies.
 * Throws ConfigError naming `allowOption` when an allow glob is empty or malformed.
 * @example
 * const policy = createSecretPolicy({ allow: ['test/fixtures/**'] });
 * policy.reasonForName('.env'); // 'secret: environment file (.env*)'
 */
export function createSecretPolicy(options: SecretPolicyOptions = {}): SecretPolicy {
  const isAllowed = compileAllow(options.allow ?? [], options.allowOption ?? 'secrets.allow');
  return {
    reasonForName: (relPath) => (isAllowed(relPath) ? null : secretNameReason(relPath)),
    reasonForText: (relPath, text) => (isAllowed(relPath) ? null : secretContentReason(relPath, text)),
  };
}

/** The policy with every rule and no exception. */
export const DEFAULT_SECRET_POLICY: SecretPolicy = createSecretPolicy();

function compileAllow(globs: readonly string[], option: string): (relPath: string) => boolean {
  return compileGlobs(globs, option) ?? (() => false);
}
