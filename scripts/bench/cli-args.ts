/** Command-line flags of the bench scripts: `--name value` / `--name=value` pairs, bare booleans, positionals. */

/** Parsed arguments: positionals in order, flag values by name (without the dashes). */
export interface BenchArgs {
  readonly positional: readonly string[];
  readonly values: ReadonlyMap<string, string>;
  readonly flags: ReadonlySet<string>;
}

/** Bad usage: the scripts print the message and exit 2. */
export class BenchUsageError extends Error {}

/**
 * Parses argv against the known value flags and boolean flags.
 * @throws BenchUsageError for an unknown flag or a value flag without a value.
 */
export function parseBenchArgs(argv: readonly string[], known: { values: readonly string[]; booleans?: readonly string[] }): BenchArgs {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = (eq > 0 ? arg.slice(0, eq) : arg).slice(2);
    if (known.values.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '') throw new BenchUsageError(`--${name} needs a value.`);
      values.set(name, value);
    } else if (known.booleans?.includes(name) && eq < 0) {
      flags.add(name);
    } else {
      throw new BenchUsageError(`Unknown flag ${arg}.`);
    }
  }
  return { positional, values, flags };
}

/**
 * A positive integer flag, or its default.
 * @throws BenchUsageError for anything but a positive integer.
 */
export function intFlag(args: BenchArgs, name: string, fallback: number): number {
  const raw = args.values.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new BenchUsageError(`--${name} must be a positive integer, got "${raw}".`);
  return n;
}

/** Runs a script's main, turning usage errors into exit code 2 with the usage text. */
export async function runScript(usage: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    process.stderr.write(`${error.message}\n${usage}\n`);
    process.exitCode = 2;
  }
}
