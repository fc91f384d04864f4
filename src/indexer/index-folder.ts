import { mkdir, stat, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { PRIVATE_DIR_MODE } from '../store/private-files.js';

/**
 * Linux file systems that cannot hold an index (statfs magic numbers): kernel views such as proc and sysfs. They
 * are refused by name before anything is created there: Node's recursive mkdir of `/proc/x/y` never returns.
 */
const SPECIAL_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'], [0x62656572, 'sysfs'], [0x1cd1, 'devpts'], [0x64626720, 'debugfs'], [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'], [0x27e0eb, 'cgroup'], [0x63677270, 'cgroup2'], [0xcafe4a11, 'bpf'], [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'], [0x65735543, 'fusectl'], [0x19800202, 'mqueue'], [0xde5e81e4, 'efivarfs'],
  [0xf97cff8c, 'selinuxfs'], [0x42494e4d, 'binfmt_misc'], [0x6e736673, 'nsfs'], [0x958458f6, 'hugetlbfs'],
]);

function refuse(indexDir: string, why: string, cause?: unknown): ConfigError {
  return new ConfigError(
    `Cannot create the index folder ${indexDir}: ${why}. Pass a writable --cache-dir (or set CODESCOUT_CACHE_DIR).`,
    'cacheDir',
    cause === undefined ? undefined : { cause },
  );
}

/** The nearest existing folder at or above `dir`, and the folders below it still to create (top first). */
async function nearestExisting(indexDir: string): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  for (let dir = indexDir; ; dir = path.dirname(dir)) {
    try {
      const s = await stat(dir);
      if (!s.isDirectory()) throw refuse(indexDir, `${dir} is not a folder`);
      return { existing: dir, missing: missing.reverse() };
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a file above; walking up names it.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(dir) === dir) throw refuse(indexDir, code ?? String(error), error);
      missing.push(dir);
    }
  }
}

/**
 * Creates the index folder (and the cache dir above it) with mode 0700, one level at a time, after checking that
 * the nearest existing folder is a folder on a file system that can hold files. An existing index folder is left
 * as it is (a read-only one too: readers may still use it).
 * @throws ConfigError (CLI exit 2) for a path through a file, a kernel file system (/proc, /sys, ...), or a folder
 * that cannot be created.
 */
export async function makeIndexFolder(indexDir: string): Promise<void> {
  const { existing, missing } = await nearestExisting(indexDir);
  if (process.platform === 'linux') {
    const type = (await statfs(existing).catch(() => null))?.type;
    const name = type === undefined ? undefined : SPECIAL_FILE_SYSTEMS.get(type);
    if (name !== undefined) throw refuse(indexDir, `${existing} is on a ${name} file system, which cannot hold an index`);
  }
  for (const dir of missing) {
    try {
      await mkdir(dir, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // another process made it first
      throw refuse(indexDir, `${dir} cannot be created (${(error as NodeJS.ErrnoException).code ?? error})`, error);
    }
  }
  // A cache dir codescout creates ignores itself, so `<root>/index-cache/` never shows up in `git status`.
  const cacheDir = path.dirname(indexDir);
  if (missing.includes(cacheDir)) {
    await writeFile(path.join(cacheDir, '.gitignore'), SELF_IGNORE, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw refuse(indexDir, `${cacheDir}/.gitignore cannot be written (${error.code ?? error})`, error);
    });
  }
}

/** The .gitignore of a cache dir codescout created: everything in it is derived data. */
export const SELF_IGNORE = '# Created by codescout: indexes are derived data, rebuilt by `codescout index`.\n*\n';
