/**
 * A second branch of a corpus for the shared-store bench: a copy of the corpus folder in which exactly `files` of its
 * files are as they were some commits earlier (real edits from the repository's history, not synthetic ones); a
 * file that did not exist then is deleted from the copy.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const git = promisify(execFile);
/** Ancestors tried, nearest first, until one differs from the commit in enough corpus files. */
const MAX_DEPTH = 400;

/** The branch folder and how it differs from the corpus. */
export interface BranchTree {
  readonly dir: string;
  /** The ancestor the changed files were taken from, `<commit>~<n>`. */
  readonly from: string;
  readonly changed: number;
  readonly deleted: number;
}

/**
 * Copies `corpusDir` (the files of `commit` in `gitDir`) to `dest` and rolls `files` of its files back to the nearest
 * first-parent ancestor that differs from `commit` in at least that many of them (the first `files` by path).
 * @throws Error when no ancestor within MAX_DEPTH differs in enough files.
 */
export async function makeBranchTree(o: {
  gitDir: string; commit: string; corpusDir: string; corpusFiles: readonly string[]; files: number; dest: string;
}): Promise<BranchTree> {
  const inCorpus = new Set(o.corpusFiles);
  // status A: added since the ancestor, so absent on the branch; M: modified. (D files are not in the corpus.)
  let differing: Array<{ status: string; file: string }> = [];
  let from = '';
  for (let depth = 5; depth <= MAX_DEPTH && differing.length < o.files; depth = Math.ceil(depth * 1.25)) {
    from = `${o.commit}~${depth}`;
    const { stdout } = await git('git', ['--git-dir', o.gitDir, 'diff', '--name-status', '--no-renames', from, o.commit], { maxBuffer: 64 << 20 });
    differing = stdout.split('\n').map((line) => line.split('\t')).filter(([, file]) => file !== undefined && inCorpus.has(file))
      .map(([status, file]) => ({ status: status!, file: file! })).sort((a, b) => a.file.localeCompare(b.file));
  }
  if (differing.length < o.files) throw new Error(`No ancestor of ${o.commit} within ${MAX_DEPTH} commits differs in ${o.files} corpus files.`);
  await rm(o.dest, { recursive: true, force: true });
  await mkdir(path.dirname(o.dest), { recursive: true });
  await cp(o.corpusDir, o.dest, { recursive: true });
  let deleted = 0;
  for (const { status, file } of differing.slice(0, o.files)) {
    const target = path.join(o.dest, file);
    if (status === 'A') {
      await rm(target);
      deleted++;
      continue;
    }
    const old = await git('git', ['--git-dir', o.gitDir, 'show', `${from}:${file}`], { maxBuffer: 64 << 20, encoding: 'buffer' });
    await writeFile(target, old.stdout);
  }
  return { dir: o.dest, from, changed: o.files - deleted, deleted };
}
