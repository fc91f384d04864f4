import path from 'node:path';
import { ConfigError } from '../errors.js';

/**
 * The root a command works on: the positional `[root]` or `--root R` (either form; the same folder twice is fine).
 * @throws ConfigError naming both when they point at different folders.
 */
export function rootArgument(positional: string | undefined, option: string | undefined): string | undefined {
  if (positional === undefined) return option;
  if (option === undefined || path.resolve(positional) === path.resolve(option)) return positional;
  throw new ConfigError(`Two different roots given: "${positional}" (positional) and --root "${option}". Give one of them.`, 'root');
}
