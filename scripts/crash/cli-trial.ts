/** The crash test's CLI trials: `codescout index` or `watch` as a child process, SIGKILLed at a random moment. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Path of bin/codescout.js (run `npm run build` first). */
export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codescout.js');

/** The children's environment: offline, and the cache dir only from `--cache-dir`. */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CODESCOUT_OFFLINE: '1' };
  delete env.CODESCOUT_CACHE_DIR;
  return env;
}

function spawnCodescout(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Spawns the CLI, optionally edits files every 100 ms while it runs, and SIGKILLs it after `delayMs`. */
export async function runAndKill(o: {
  args: readonly string[];
  delayMs: number;
  lockPath: string;
  edit?: () => Promise<unknown>;
}): Promise<{ killed: boolean; wrote: boolean; code: number | null; stderr: string }> {
  const { delayMs, edit } = o;
  const child = spawnCodescout(o.args);
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let running = true;
  void exited.then(() => (running = false));
  const deadline = Date.now() + delayMs;
  while (running && Date.now() < deadline) {
    if (edit) await edit();
    await new Promise((r) => setTimeout(r, Math.min(100, Math.max(0, deadline - Date.now()))));
  }
  const killed = running;
  if (killed) child.kill('SIGKILL');
  const { code } = await exited;
  // The write lock is held only while the catalog is written (clear, update, save): a lock left behind by
  // the killed child means it died mid-write. A watcher that had printed a batch had written too.
  const wrote = killed && (existsSync(o.lockPath) || /changed|rescanned/.test(stdout));
  return { killed, wrote, code, stderr };
}
