import { extensionOf } from './languages-by-extension.js';

// File names that hold secrets by convention. A name alone decides: such a file is never opened, so a key store or
// a `.env` is never read at all. Source code whose name only mentions a secret (`secret-manager.ts`,
// `credentials.py`) is not matched here; the content rules (secret-content.ts) look inside it instead.

/** `.env` files that document variables rather than hold them. */
const ENV_TEMPLATES: ReadonlySet<string> = new Set(['.env.example', '.env.sample', '.env.template']);

/** Extensions of key files and key stores. */
const KEY_EXTENSIONS: ReadonlySet<string> = new Set(['pem', 'key', 'p12', 'pfx', 'p8', 'ppk', 'keystore', 'jks', 'kdbx']);

/** Extensions of data and configuration files: a `secret`/`credentials` name with one of these holds values. */
const DATA_EXTENSIONS: ReadonlySet<string> = new Set([
  '', 'json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'properties', 'env', 'txt', 'xml', 'csv',
]);

/** Dot-files of tools that store tokens or passwords in them. */
const CREDENTIAL_DOTFILES: ReadonlySet<string> = new Set([
  '.npmrc', '.netrc', '_netrc', '.pypirc', '.git-credentials', '.dockercfg', '.dockerconfigjson', '.dockerconfig.json',
  '.htpasswd', '.pgpass', '.my.cnf', '.s3cfg',
]);

/** An SSH private key by its default names (`id_rsa`, `id_ed25519_sk`, `id_work`); public halves end in `.pub`. */
const SSH_KEY = /^id_(?:[^.]+|(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?[._-].*)$/;

/**
 * The `secret: ...` reason for a file whose name marks it as a secret, or null. Matching is on the base name,
 * case-insensitive. The reason names the rule, never the file's content.
 */
export function secretNameReason(relPath: string): string | null {
  const lowerPath = relPath.toLowerCase();
  const name = lowerPath.slice(lowerPath.lastIndexOf('/') + 1);
  const ext = extensionOf(name);
  if ((name === '.env' || name.startsWith('.env.') || name.endsWith('.env')) && !ENV_TEMPLATES.has(name)) {
    return 'secret: environment file (.env*)';
  }
  if (KEY_EXTENSIONS.has(ext)) return `secret: key file (*.${ext})`;
  if (SSH_KEY.test(name) && ext !== 'pub') return 'secret: SSH private key (id_*)';
  if (CREDENTIAL_DOTFILES.has(name)) return `secret: credentials file (${name})`;
  if (lowerPath === '.docker/config.json' || lowerPath.endsWith('/.docker/config.json')) return 'secret: credentials file (.docker/config.json)';
  if (ext === 'tfvars' || name.endsWith('.tfvars.json')) return 'secret: Terraform variables (*.tfvars)';
  if (ext === 'tfstate' || name.endsWith('.tfstate.backup')) return 'secret: Terraform state (*.tfstate)';
  if (name.includes('credentials') && DATA_EXTENSIONS.has(ext)) return 'secret: credentials file (credentials*)';
  if (name.includes('secret') && DATA_EXTENSIONS.has(ext)) return 'secret: secret file (*secret*)';
  return null;
}
