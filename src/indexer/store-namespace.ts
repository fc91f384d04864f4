import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '../errors.js';

const run = promisify(execFile);

/** Longest a git question may take, in ms: a hung git must not hang the CLI. */
const GIT_TIMEOUT_MS = 10_000;

/** A namespace of a shared store: which repository and which branch. */
export interface StoreNamespace {
  readonly repo: string;
  readonly ref: string;
}

/**
 * The namespace of a root in a shared store: `repo` and `ref` as given, else from the git checkout of the root — the
 * origin remote as `host/owner/name` (credentials, scheme and `.git` dropped, so every clone of one repository
 * agrees) or, without a remote, the checkout's folder name; the current branch.
 * @throws ConfigError when the root is not a git checkout (or HEAD is detached) and `repo` or `ref` is not given.
 */
export async function storeNamespace(root: string, given: { repo?: string; ref?: string }): Promise<StoreNamespace> {
  if (given.repo !== undefined && given.ref !== undefined) return { repo: given.repo, ref: given.ref };
  const top = await git(root, ['rev-parse', '--show-toplevel']);
  if (top === null) {
    throw new ConfigError(`${root} is not a git checkout, so the shared store cannot tell which repository and branch it is. Pass --repo <name> and --ref <branch>.`, 'repo');
  }
  const repo = given.repo ?? repoName(await git(root, ['remote', 'get-url', 'origin'])) ?? path.basename(top);
  let ref = given.ref;
  if (ref === undefined) {
    const branch = await git(root, ['symbolic-ref', '--short', '-q', 'HEAD']);
    if (branch === null) throw new ConfigError(`The git checkout at ${top} has a detached HEAD (no branch). Pass --ref <branch>.`, 'ref');
    ref = branch;
  }
  return { repo, ref };
}

/**
 * The branch the origin remote's HEAD names (`origin/main` -> `main`), or null: no checkout, no origin, or a clone
 * that never recorded it (`git remote set-head origin --auto` records it).
 */
export async function defaultBranch(root: string): Promise<string | null> {
  const head = await git(root, ['symbolic-ref', '--short', '-q', 'refs/remotes/origin/HEAD']);
  return head === null ? null : head.replace(/^origin\//, '');
}

/** `host/owner/name` of a remote URL (https, ssh or scp-like), or null for none or a local path. */
export function repoName(url: string | null): string | null {
  if (url === null || url === '') return null;
  const scpLike = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.+)$/.exec(url);
  let host: string;
  let rest: string;
  if (scpLike !== null && !/^[a-z]+:\/\//i.test(url)) {
    [, host, rest] = scpLike as unknown as [string, string, string];
  } else {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null; // a local path as remote: the folder name says more
    }
    if (parsed.protocol === 'file:' || parsed.hostname === '') return null;
    host = parsed.hostname;
    rest = parsed.pathname;
  }
  const name = rest.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return name === '' ? null : `${host.toLowerCase()}/${name}`;
}

/** git's answer (trimmed stdout), or null when git fails (not a checkout, no such remote, no git at all). */
async function git(cwd: string, args: readonly string[]): Promise<string | null> {
  try {
    const { stdout } = await run('git', ['-C', cwd, ...args], { timeout: GIT_TIMEOUT_MS, encoding: 'utf8' });
    const text = stdout.trim();
    return text === '' ? null : text;
  } catch {
    // A failed git question is an answer here ("not a checkout", "no origin", no git): the caller says what to pass.
    return null;
  }
}
