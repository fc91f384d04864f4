/**
 * Builds a dataset's corpus as the eval README says: the repository at the header commit, only the files the
 * include/exclude globs keep, doc comments blanked by the header's blank rule (JSDoc, Python docstrings, Go doc
 * comments), and the file count and byte total checked against the header. The result is cached under the work
 * dir, keyed by dataset name and commit.
 */
import { spawn } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetHeader } from './dataset.js';
import { applyBlankRule, type BlankRule } from './blank-rules.js';
import { EvalInputError } from './errors.js';
import { compileCorpusFilter, literalPrefix } from './glob.js';

/** A prepared corpus folder and what went into it. */
export interface PreparedCorpus {
  /** Folder to index. */
  readonly dir: string;
  /** Repo-relative paths, sorted. */
  readonly files: readonly string[];
  /** Byte total before blanking. */
  readonly bytes: number;
  /** True when an earlier run's copy was reused. */
  readonly reused: boolean;
}

interface Stamp {
  readonly key: string;
  readonly files: string[];
  readonly bytes: number;
}

/** Runs a command (argument array, no shell) and returns its stdout; rejects with its stderr on failure. */
function run(command: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** True when `dir` is a git directory (bare repository or .git folder). */
export async function isGitDir(dir: string): Promise<boolean> {
  const r = await run('git', ['--git-dir', dir, 'rev-parse', '--git-dir']);
  return r.code === 0;
}

/** `git archive <commit> -- <prefixes> | tar -x -C <dest>`, as two spawned processes joined by a pipe. */
async function extractCommit(o: { gitDir: string; commit: string; dest: string; prefixes: readonly string[] }): Promise<void> {
  const check = await run('git', ['--git-dir', o.gitDir, 'cat-file', '-e', `${o.commit}^{commit}`]);
  if (check.code !== 0) {
    throw new EvalInputError(`Corpus ${o.gitDir} does not contain commit ${o.commit}. Fetch that commit into it or pass another --corpus.`, o.gitDir);
  }
  await mkdir(o.dest, { recursive: true });
  const pathspecs = o.prefixes.length > 0 ? ['--', ...o.prefixes.map((p) => `:(literal)${p}`)] : [];
  const git = spawn('git', ['--git-dir', o.gitDir, 'archive', '--format=tar', o.commit, ...pathspecs], { stdio: ['ignore', 'pipe', 'pipe'] });
  const tar = spawn('tar', ['-x', '-f', '-', '-C', o.dest], { stdio: ['pipe', 'ignore', 'pipe'] });
  git.stdout.pipe(tar.stdin);
  const finished = (child: typeof git | typeof tar, name: string): Promise<void> =>
    new Promise((resolve, reject) => {
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new EvalInputError(`${name} failed (exit ${code}): ${stderr.trim()}`, o.gitDir))));
    });
  await Promise.all([finished(git, 'git archive'), finished(tar, 'tar -x')]);
}

/** Repo-relative POSIX paths of the regular files under `root` that `keep` accepts; symlinks are listed apart. */
async function walkFiles(root: string, keep: (rel: string) => boolean): Promise<{ files: string[]; symlinks: string[] }> {
  const files: string[] = [];
  const symlinks: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (child !== '.git') await visit(child);
      } else if (keep(child)) {
        (entry.isSymbolicLink() ? symlinks : files).push(child);
      }
    }
  };
  await visit('');
  files.sort();
  return { files, symlinks };
}

/** Blanks by `rule` without disturbing bytes outside the blanked text; text that is not valid UTF-8 is handled byte-wise (latin1). */
function blankBuffer(rule: BlankRule, buf: Buffer): Buffer {
  const utf8 = buf.toString('utf8');
  const encoding: BufferEncoding = Buffer.from(utf8, 'utf8').equals(buf) ? 'utf8' : 'latin1';
  return Buffer.from(applyBlankRule(rule, buf.toString(encoding)), encoding);
}

/**
 * Prepares (or reuses) the corpus of a dataset from a git directory or an extracted checkout.
 * @throws EvalInputError when the commit is missing or the file count / byte total differ from the header.
 */
export async function prepareCorpus(o: {
  header: DatasetHeader;
  datasetFile: string;
  source: string;
  workDir: string;
  fresh: boolean;
  onStep?: (message: string) => void;
}): Promise<PreparedCorpus> {
  const { header } = o;
  const base = path.join(o.workDir, `${header.name}-${header.commit.slice(0, 12)}`);
  const dir = path.join(base, 'corpus');
  const stampFile = path.join(base, 'prepared.json');
  // A rule other than JSDoc joins the key; JSDoc sets keep the key (and the prepared corpora) they had before rules.
  const rule = header.blankRule === null || header.blankRule === 'jsdoc' ? [] : [header.blankRule];
  const key = JSON.stringify([path.resolve(o.source), header.commit, header.include, header.exclude, header.blankJsdoc, ...rule]);
  if (!o.fresh) {
    const stamp = await readStamp(stampFile);
    if (stamp?.key === key && (await lstat(dir).catch(() => null))?.isDirectory()) {
      return { dir, files: stamp.files, bytes: stamp.bytes, reused: true };
    }
  }
  await rm(stampFile, { force: true });
  const scratch = path.join(base, `checkout.tmp-${process.pid}`);
  const staging = path.join(base, `corpus.tmp-${process.pid}`);
  try {
    let from = o.source;
    if (await isGitDir(o.source)) {
      const prefixes = header.include.map(literalPrefix);
      o.onStep?.(`extracting ${header.commit.slice(0, 12)} from ${o.source}`);
      await extractCommit({ gitDir: o.source, commit: header.commit, dest: scratch, prefixes: prefixes.includes('') ? [] : [...new Set(prefixes)] });
      from = scratch;
    }
    const keep = compileCorpusFilter(header.include, header.exclude);
    const { files, symlinks } = await walkFiles(from, keep);
    let bytes = 0;
    for (const rel of files) {
      const buf = await readFile(path.join(from, rel));
      bytes += buf.length;
      await mkdir(path.dirname(path.join(staging, rel)), { recursive: true });
      await writeFile(path.join(staging, rel), header.blankRule !== null ? blankBuffer(header.blankRule, buf) : buf);
    }
    if (files.length !== header.corpusFiles || bytes !== header.corpusBytes) {
      throw new EvalInputError(
        `The corpus built from ${o.source} at ${header.commit.slice(0, 12)} has ${files.length} files / ${bytes} bytes; ` +
          `${o.datasetFile} says ${header.corpusFiles} / ${header.corpusBytes}` +
          (symlinks.length > 0 ? ` (${symlinks.length} matching symlinks were left out: ${symlinks.slice(0, 3).join(', ')})` : '') +
          `. Pass a checkout of ${header.repo} at ${header.commit} (or its git directory) to --corpus.`,
        o.source,
      );
    }
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    await writeFile(stampFile, JSON.stringify({ key, files, bytes } satisfies Stamp));
    return { dir, files, bytes, reused: false };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

async function readStamp(file: string): Promise<Stamp | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let value: Partial<Stamp>;
  try {
    value = JSON.parse(text) as Partial<Stamp>;
  } catch {
    return null; // A damaged stamp (an interrupted run) only means "prepare again".
  }
  return typeof value.key === 'string' && Array.isArray(value.files) && typeof value.bytes === 'number' ? (value as Stamp) : null;
}
