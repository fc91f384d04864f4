import type { Config } from '../config.js';
import { createSecretPolicy, type SecretPolicy } from '../discover/secret-policy.js';

/** What every discovery of one index uses (a full pass, the watcher's inspection, `reindex`): one place, so they agree. */
export interface DiscoverySettings {
  readonly root: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly maxFileBytes: number;
  /** The cache dir and the index folder: never indexed, whatever their names (a `--cache-dir` inside the root). */
  readonly excludeDirs: readonly string[];
  readonly secrets: SecretPolicy;
}

/**
 * The discovery settings of an index at `indexDir` under `config`.
 * @throws ConfigError when a `secretsAllow` glob is malformed.
 */
export function discoverySettingsFor(config: Config, indexDir: string): DiscoverySettings {
  return Object.freeze({
    root: config.root,
    include: config.include,
    exclude: config.exclude,
    maxFileBytes: config.maxFileBytes,
    excludeDirs: Object.freeze([config.cacheDir, indexDir]),
    secrets: createSecretPolicy({ allow: config.secretsAllow, allowOption: 'secretsAllow' }),
  });
}
