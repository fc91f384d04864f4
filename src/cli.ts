import { Command, CommanderError } from 'commander';
import { CodeIndexError } from './errors.js';
import { modelFetch, modelList } from './cli/model-command.js';
import { eprintln, type CliIO } from './cli/output.js';

/** Exit code for bad usage (unknown flag, bad option value). */
const EXIT_USAGE = 2;

/**
 * Runs the CLI: argv -> library call -> output. Returns the exit code; never calls process.exit.
 * @example await main(['node', 'codescout', 'index', '.'])
 */
export async function main(argv: string[], io: CliIO = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let exitCode = 0;
  const debug = argv.includes('--debug');
  const program = buildProgram(io, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(io, error, debug);
  }
}

function buildProgram(io: CliIO, setExit: (code: number) => void): Command {
  const program = new Command('codescout')
    .description('Local semantic code index with an iterative retrieval loop')
    .option('--debug', 'show stack traces on errors')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError('(run codescout --help for usage)');

  const model = program.command('model').description('provision and list embedding models');
  model
    .command('fetch [id]')
    .description('provision a model into the shared models folder and prove it loads')
    .option('--models-dir <dir>', 'shared models folder (default: <package>/index-cache/models)')
    .option('--model-dir <dir>', 'use this model folder as is')
    .option('--offline', 'skip the Hugging Face hub')
    .option('--json', 'machine-readable output')
    .action(async (id: string | undefined, opts) => setExit(await modelFetch(io, id, opts)));
  model
    .command('list')
    .description('list supported models')
    .option('--json', 'machine-readable output')
    .action((opts) => setExit(modelList(io, opts)));
  return program;
}

function reportError(io: CliIO, error: unknown, debug: boolean): number {
  if (error instanceof CommanderError) {
    // Help and version are "errors" to commander with exit code 0.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (error instanceof CodeIndexError) {
    eprintln(io, `codescout: ${error.message}`);
    if (debug && error.stack) eprintln(io, error.stack);
    return error.exitCode;
  }
  eprintln(io, `codescout: unexpected error: ${(error as Error)?.message ?? String(error)}`);
  eprintln(io, debug ? String((error as Error)?.stack) : 'Run again with --debug for the stack trace, and please report it.');
  return 1;
}
