/** Read-only git access to a bare mirror: the file list at a commit, blob contents and the log. */
import { execFileSync } from 'node:child_process';

/** One regular file of a tree. */
export interface TreeFile {
  readonly path: string;
  readonly blob: string;
  readonly bytes: number;
}

/** A non-merge commit with the files it added (A), modified (M) or deleted (D), renames split into D + A. */
export interface LoggedCommit {
  readonly id: string;
  readonly date: string; // committer date, ISO 8601
  readonly message: string;
  readonly changes: readonly { status: string; path: string }[];
}

const MAX_BUFFER_BYTES = 512 * 1024 * 1024;

/** Runs git against `gitDir` and returns stdout as a Buffer; throws with git's stderr on failure. */
function git(gitDir: string, args: readonly string[], input?: string): Buffer {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { input, maxBuffer: MAX_BUFFER_BYTES, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Full id of the mirror's HEAD commit. */
export function headCommit(gitDir: string): string {
  return git(gitDir, ['rev-parse', 'HEAD^{commit}']).toString().trim();
}

/** Regular files (modes 100644/100755) of `commit`; symlinks and submodules are left out, as the corpus walk does. */
export function listTree(gitDir: string, commit: string): TreeFile[] {
  const out = git(gitDir, ['ls-tree', '-r', '-l', '-z', commit]).toString('utf8');
  const files: TreeFile[] = [];
  for (const record of out.split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode, type, blob, size] = record.slice(0, tab).split(/\s+/);
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755') || blob === undefined) continue;
    files.push({ path: record.slice(tab + 1), blob, bytes: Number(size) });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Contents of the given blobs, via one `git cat-file --batch`. */
export function readBlobs(gitDir: string, blobs: readonly string[]): Map<string, Buffer> {
  const out = git(gitDir, ['cat-file', '--batch'], blobs.map((b) => `${b}\n`).join(''));
  const result = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    const [id, , size] = out.subarray(at, eol).toString().split(' ');
    const length = Number(size);
    result.set(id as string, out.subarray(eol + 1, eol + 1 + length));
    at = eol + 1 + length + 1; // content, then a newline
  }
  return result;
}

/**
 * Non-merge commits reachable from `commit` (newest first; side branches of merge-based histories included) that touch `pathspecs`, with their
 * file changes under those pathspecs; rename detection is off, so a rename shows as a delete plus an add.
 */
export function logCommits(o: { gitDir: string; commit: string; pathspecs: readonly string[]; maxCommits: number }): LoggedCommit[] {
  const specs = o.pathspecs.length > 0 ? ['--', ...o.pathspecs.map((p) => `:(literal)${p}`)] : [];
  const args = ['log', '--no-merges', '--no-renames', '--name-status', '-z', `-n${o.maxCommits}`, '--format=%x01%H%x02%cI%x02%B%x03', o.commit, ...specs];
  const out = git(o.gitDir, args).toString('utf8');
  const commits: LoggedCommit[] = [];
  for (const record of out.split('\x01')) {
    if (record === '') continue;
    const end = record.indexOf('\x03');
    const [id, date, message] = record.slice(0, end).split('\x02');
    const fields = record.slice(end + 1).replace(/^\0?\n*/, '').split('\0');
    const changes: { status: string; path: string }[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const status = fields[i] as string;
      if (status === '') break;
      changes.push({ status: status.charAt(0), path: fields[i + 1] as string });
    }
    commits.push({ id: id as string, date: date as string, message: (message as string).trim(), changes });
  }
  return commits;
}
