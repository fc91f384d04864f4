import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI entry point (built by `npm test`'s build step). */
export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codescout.js');

/** Output and exit code of one CLI run. */
export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Environment for CLI children: offline (no hub probe), no inherited cache dir. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CODESCOUT_OFFLINE: '1', ...extra };
  delete env.CODESCOUT_CACHE_DIR;
  return env;
}

/** Where and as whom a CLI child runs. `uid`/`gid` (only when the test runs as root) run it as another user. */
export interface SpawnCliOptions {
  /** Another copy of the CLI entry point (e.g. an installed package); default {@link CLI}. */
  cli?: string;
  cwd?: string;
  env?: Record<string, string>;
  uid?: number;
  gid?: number;
}

/** Starts the CLI as a child process (no shell). */
export function spawnCli(args: readonly string[], options: SpawnCliOptions = {}): ChildProcess {
  const user = options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid };
  return spawn(process.execPath, [options.cli ?? CLI, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'], ...user });
}

/** Runs the CLI to completion. */
export function runCli(args: readonly string[], options: SpawnCliOptions & { timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`codescout ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Resolves when the child's stream has printed text matching `pattern`; rejects on timeout or exit. */
export function waitForOutput(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (d: Buffer): void => {
      seen += d.toString();
      const m = seen.match(pattern);
      if (m) {
        cleanup();
        resolve(m[0]);
      }
    };
    const onExit = (): void => {
      cleanup();
      reject(new Error(`process exited before printing ${pattern}; saw: ${seen.slice(-500)}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out waiting for ${pattern}; saw: ${seen.slice(-500)}`));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      child[stream]!.off('data', onData);
      child.off('exit', onExit);
    };
    child[stream]!.on('data', onData);
    child.on('exit', onExit);
  });
}

/** Resolves with the exit code/signal once the child has exited. */
export function waitForExit(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** The unprivileged user CLI children run as when the suite runs as root (file modes do not bind root). */
export const NOBODY = 65534;

/**
 * Lets other users traverse (o+x, not list) every folder from `/` down to the checkout, so a CLI child run as
 * {@link NOBODY} can reach bin/ and node_modules even when the checkout sits in a private folder (`mktemp -d` makes
 * 0700 ones). Returns a function that puts the modes back. A no-op unless this process is root.
 */
export async function letOtherUsersReachCheckout(): Promise<() => Promise<void>> {
  if (process.getuid?.() !== 0) return async () => undefined;
  const changed: Array<[string, number]> = [];
  for (let dir = path.dirname(path.dirname(CLI)); ; dir = path.dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      await chmod(dir, mode | 0o001);
      changed.push([dir, mode]);
    }
    if (path.dirname(dir) === dir) break;
  }
  return async () => {
    for (const [dir, mode] of changed) await chmod(dir, mode);
  };
}
