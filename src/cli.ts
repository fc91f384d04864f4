import { Command, CommanderError, Option } from 'commander';
import { servedOrInProcess } from './cli/ask-server.js';
import { packageVersion } from './cli/package-version.js';
import { toKnownError } from './cli/known-errors.js';
import { rootArgument } from './cli/root-arg.js';
import { eprintLines, eprintln, escapeControl, type CliIO } from './cli/output.js';

// The shared index and its namespace, for every command that opens an index (watch and mcp keep a local layer of the
// checkout's own edits over it; only index writes it).
const storeOption = (): Option => new Option('--store <url>', 'the shared index in PostgreSQL: postgres://user@host:5432/db (env CODESCOUT_STORE; default: the embedded store)');
const repoOption = (): Option => new Option('--repo <name>', 'the repository in the shared store (default: the git origin, e.g. github.com/acme/shop)');
const refOption = (): Option => new Option('--ref <branch>', 'the branch in the shared store (default: the checkout\'s current branch)');

// Each command's module is loaded when it runs: a warm `search` or `query` (answered by a query server) then never
// loads the model runtime, SQLite or tree-sitter, and `--version` or `--help` neither.
const indexCommands = () => import('./cli/index-commands.js');

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
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--debug', 'show stack traces on errors')
    .exitOverride()
    .configureOutput({
      // Commander repeats arguments in its errors (`unknown option '...'`): escaped like every other output line.
      writeOut: (s) => io.stdout.write(escapeControl(s, { keepNewlines: true })),
      writeErr: (s) => io.stderr.write(escapeControl(s, { keepNewlines: true })),
    })
    .showHelpAfterError('(run codescout --help for usage)');

  program
    .command('index [root]')
    .description('build or update the index of a folder (default: the current folder)')
    .option('--root <dir>', 'the folder (same as the [root] argument)')
    .option('--cache-dir <dir>', 'where indexes live (default: <root>/index-cache; env CODESCOUT_CACHE_DIR)')
    .addOption(storeOption()).addOption(repoOption()).addOption(refOption())
    .option('--lock-wait <seconds>', 'wait this long for another writer of the same index to finish (default 0: exit 5 at once)')
    .option('--base-ref <ref>', 'with --store: index this branch over the index of <ref> (e.g. main), storing only the files that differ; remembered')
    .option('--model <id>', 'embedding model id (see: codescout model list)')
    .option('--model-dir <dir>', 'load the model from this folder')
    .option('--include <globs>', 'only index paths matching these globs (comma-separated, repeatable; stored with the index for watch and mcp)', collect, [])
    .option('--exclude <globs>', 'leave out paths matching these globs (comma-separated, repeatable; stored with the index)', collect, [])
    .option('--rebuild', 'discard the existing index and build it again')
    .option('--reset-filters', 'forget the --include/--exclude globs stored with the index by an earlier run')
    .option('--no-progress', 'no progress output')
    .option('--json', 'print a JSON summary')
    .action(async (root: string | undefined, opts) => setExit(await (await indexCommands()).runIndex(io, rootArgument(root, opts.root), opts)));
  program
    .command('status [root]')
    .description('show what an index holds')
    .option('--root <dir>', 'the folder (same as the [root] argument)')
    .option('--cache-dir <dir>', 'where indexes live')
    .addOption(storeOption()).addOption(repoOption()).addOption(refOption())
    .option('--model <id>', 'embedding model id')
    .option('--verify', 'check the index end to end; exit 6 when a problem is found')
    .option('--json', 'machine-readable output')
    .action(async (root: string | undefined, opts) => setExit(await (await indexCommands()).runStatus(io, rootArgument(root, opts.root), opts)));
  program
    .command('search <text>')
    .description('one-shot search (vector, lexical or hybrid)')
    .option('--root <dir>', 'the indexed folder (default: current folder)')
    .option('--cache-dir <dir>', 'where indexes live')
    .addOption(storeOption()).addOption(repoOption()).addOption(refOption())
    .option('--model <id>', 'embedding model id')
    .option('-k <n>', 'number of results', '10')
    .option('--mode <mode>', 'vector | lexical | hybrid', 'hybrid')
    .option('--include <globs>', 'only paths matching these globs', collect, [])
    .option('--exclude <globs>', 'leave out paths matching these globs', collect, [])
    .option('--threshold <similarity>', 'hide hits less similar to the query than this (0..1, e.g. 0.3)')
    .option('-C, --context <n>', 'show n more code lines per hit')
    .option('--text', 'show the whole code of each hit (with --json: add it as `text`)')
    .option('-l, --files-only', 'print only the paths of the files hit, best first')
    .option('--json', 'machine-readable output')
    .option('--no-server', 'answer in-process even when a watch, mcp or serve process serves the index')
    .option('--verbose', 'say on stderr which path answered: the query server or in-process (and why)')
    .action(async (text: string, opts) => setExit(await servedOrInProcess(io, { command: 'search', text, options: opts }, async () => (await import('./cli/search-command.js')).runSearch(io, text, opts))));
  program
    .command('watch [root]')
    .description('keep the index current while you work (Ctrl-C to stop)')
    .option('--root <dir>', 'the folder (same as the [root] argument)')
    .option('--cache-dir <dir>', 'where indexes live')
    .addOption(storeOption()).addOption(repoOption()).addOption(refOption())
    .option('--model <id>', 'embedding model id')
    .option('--poll', 'poll the file system instead of OS events')
    .option('--json', 'one JSON line per event')
    .action(async (root: string | undefined, opts) => setExit(await (await import('./cli/watch-command.js')).runWatch(io, rootArgument(root, opts.root), opts)));
  program
    .command('query <text>')
    .description('the iterative retrieval loop: search, evaluate, refine, up to --max-cycles times')
    .option('--root <dir>', 'the indexed folder (default: current folder)')
    .option('--cache-dir <dir>', 'where indexes live')
    .addOption(storeOption()).addOption(repoOption()).addOption(refOption())
    .option('--model <id>', 'embedding model id')
    .option('--keywords <words>', 'extra keywords (comma-separated, repeatable)', collect, [])
    .option('--patterns <globs>', 'search only within these globs', collect, [])
    .option('--exclude <globs>', 'leave out paths matching these globs', collect, [])
    .option('--max-cycles <n>', 'most cycles (1-5)', '3')
    .option('--min-high <n>', 'stop early once this many files score >= 0.7 and no definition they use is missing (1-50, default 3)')
    .option('--single', 'one cycle only (the one-shot baseline)')
    .option('--judge <name>', 'the built-in judge: learned (default, the ranking model blended with the formula) or heuristic (the hand-tuned formula alone)')
    .option('--judge-cmd <command>', 'judge each cycle with this shell command: task and candidates as JSON on stdin, {"evaluations": [...]} on stdout')
    .option('--judge-timeout <seconds>', 'most seconds one judgement may take (default 120)')
    .option('--json', 'print the full result with the cycle trace')
    .option('--no-server', 'answer in-process even when a watch, mcp or serve process serves the index')
    .option('--verbose', 'say on stderr which path answered: the query server or in-process (and why)')
    .action(async (text: string, opts) => setExit(await servedOrInProcess(io, { command: 'query', text, options: opts }, async () => (await import('./cli/query-command.js')).runQuery(io, text, opts))));
  program
    .command('mcp [root]')
    .description('serve the index to MCP clients over stdio (tools: retrieve_context, search_code, index_status, reindex)')
    .option('--root <dir>', 'the folder (same as the [root] argument)')
    .option('--cache-dir <dir>', 'where indexes live')
    .addOption(storeOption()).addOption(repoOption()).addOption(refOption())
    .option('--model <id>', 'embedding model id')
    .option('--model-dir <dir>', 'load the model from this folder')
    .option('--no-watch', 'do not keep the index live with a file watcher')
    .action(async (root: string | undefined, opts) => setExit(await (await import('./cli/mcp-command.js')).runMcp(io, rootArgument(root, opts.root), opts)));
  program
    .command('serve [root]')
    .description('hold the index open with its model loaded and answer search and query from other shells at once (Ctrl-C to stop)')
    .option('--root <dir>', 'the folder (same as the [root] argument)')
    .option('--cache-dir <dir>', 'where indexes live')
    .addOption(storeOption()).addOption(repoOption()).addOption(refOption())
    .option('--model <id>', 'embedding model id')
    .option('--model-dir <dir>', 'load the model from this folder')
    .action(async (root: string | undefined, opts) => setExit(await (await import('./cli/serve-command.js')).runServe(io, rootArgument(root, opts.root), opts)));
  program
    .command('chunks <file>')
    .description('print the chunk records of one file')
    .option('--text', 'include the text that is embedded')
    .option('--model <id>', 'model whose token budget applies')
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts) => setExit(await (await indexCommands()).runChunks(io, file, opts)));

  program
    .command('doctor [root]')
    .description('check Node, the native modules and grammars, the model, the writable folders and the index; exit 2 on a problem')
    .option('--root <dir>', 'the folder (same as the [root] argument)')
    .option('--cache-dir <dir>', 'where indexes live')
    .option('--model <id>', 'embedding model id')
    .option('--model-dir <dir>', 'load the model from this folder')
    .option('--models-dir <dir>', 'shared models folder')
    .option('--json', 'machine-readable output')
    .action(async (root: string | undefined, opts) => setExit(await (await import('./cli/doctor-command.js')).runDoctor(io, rootArgument(root, opts.root), opts)));

  const model = program.command('model').description('provision and list embedding models');
  model
    .command('fetch [id]')
    .description('provision a model into the shared models folder and prove it loads')
    .option('--models-dir <dir>', 'shared models folder (default: ~/.cache/codescout/models or the platform equivalent)')
    .option('--model-dir <dir>', 'use this model folder as is')
    .option('--offline', 'skip the Hugging Face hub')
    .option('--json', 'machine-readable output')
    .action(async (id: string | undefined, opts) => setExit(await (await import('./cli/model-command.js')).modelFetch(io, id, opts)));
  model
    .command('list')
    .description('list supported models')
    .option('--json', 'machine-readable output')
    .action(async (opts) => setExit((await import('./cli/model-command.js')).modelList(io, opts)));
  return program;
}

/** Collects a repeatable, comma-separated list option. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter((v) => v !== '')];
}

function reportError(io: CliIO, error: unknown, debug: boolean): number {
  if (error instanceof CommanderError) {
    // Help and version are "errors" to commander with exit code 0.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  const known = toKnownError(error);
  if (known !== null) {
    eprintln(io, `codescout: ${known.message}`);
    if (debug && error instanceof Error && error.stack) eprintLines(io, error.stack);
    return known.exitCode;
  }
  eprintln(io, `codescout: unexpected error: ${(error as Error)?.message ?? String(error)}`);
  if (debug) eprintLines(io, String((error as Error)?.stack));
  else eprintln(io, 'Run again with --debug for the stack trace, and please report it.');
  return 1;
}
