/**
 * Builds doc2code and commit2files training task sets, in the format and by the rules of
 * ../shared/eval/README.md, from the public repositories issue 14 allows, each at its mirror's HEAD commit.
 * Writes one JSONL file per repository and kind to --out (outside git) and the manifest to
 * scripts/train/manifest.json, and prints one summary line per repository.
 * Usage: npx tsx scripts/train/build-tasks.ts --out /tmp/codescout-train [--repos a/b,c/d] [--max-tasks N]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildRepo, type RepoBuild } from './build-repo.js';
import { DEV_REPOSITORIES, FETCH_NOTES, TRAINING_REPOSITORIES } from './repositories.js';

const GENERATOR = 'scripts/train/build-tasks.ts';
const BLANK_RULE = 'before indexing, replace every character except newline of each /** ... */ block comment (JSDoc; not /**/) with a space, so line numbers stay';
const MANIFEST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'manifest.json');
const USAGE = 'Usage: npx tsx scripts/train/build-tasks.ts --out /tmp/codescout-train [--repos a/b,c/d] [--max-tasks N] [--mirrors /work/.mirror] [--seed N] [--max-files N] [--max-bytes N]';

interface ManifestEntry {
  repo: string;
  commit?: string;
  kinds?: string[];
  language?: string;
  corpus_files?: number;
  corpus_bytes?: number;
  doc2code?: { tasks: number; eligible: number; file: string };
  commit2files?: { tasks: number; eligible: number; source_commits: string; file: string };
  left_out_files?: { path: string; reason: string }[];
  skipped?: string;
}

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : usage(`${flag} must be a positive integer, got "${value}".`);
}

const slugOf = (repo: string): string => repo.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const day = (iso: string): string => iso.slice(0, 10);
const jsonl = (rows: readonly unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function corpusHeader(b: RepoBuild, kind: string, count: number): Record<string, unknown> {
  const c = b.corpus;
  if (c === undefined || b.commit === undefined) throw new Error(`no corpus for ${b.repo}`);
  return { type: 'header', name: `${kind}-${slugOf(b.repo)}`, kind, split: 'train', repo: b.repo, commit: b.commit, include: c.include, exclude: c.exclude };
}

/** Writes the repository's JSONL files and returns its manifest entry. */
function writeSets(b: RepoBuild, outDir: string): ManifestEntry {
  if (b.skipped !== undefined || b.corpus === undefined) return { repo: b.repo, ...(b.commit ? { commit: b.commit } : {}), skipped: b.skipped ?? 'no corpus' };
  const slug = slugOf(b.repo);
  const sizes = { corpus_files: b.corpus.files.length, corpus_bytes: b.corpus.bytes };
  const entry: ManifestEntry = { repo: b.repo, commit: b.commit, kinds: [], language: b.corpus.language, ...sizes, left_out_files: b.leftOut ?? [] };
  if (b.doc2code.length > 0) {
    const file = `doc2code-${slug}.jsonl`;
    const header = { ...corpusHeader(b, 'doc2code', b.doc2code.length), blank_jsdoc: true, blank_rule: BLANK_RULE, count: b.doc2code.length, generator: GENERATOR, ...sizes };
    const tasks = b.doc2code.map((t, i) => ({ id: `${slug}-d2c-${String(i + 1).padStart(4, '0')}`, query: t.query, gold: t.gold }));
    writeFileSync(path.join(outDir, file), jsonl([header, ...tasks]));
    entry.kinds?.push('doc2code');
    entry.doc2code = { tasks: tasks.length, eligible: b.doc2codeEligible, file };
  }
  if (b.commit2files.length > 0) {
    const file = `commit2files-${slug}.jsonl`;
    const newestFirst = [...b.commit2files].sort((x, y) => (x.date < y.date ? 1 : x.date > y.date ? -1 : 0));
    const range = `${day(newestFirst.at(-1)?.date ?? '')} .. ${day(newestFirst[0]?.date ?? '')}`;
    const source = `non-merge fix/feat/perf/refactor commits, ${range}`;
    const header = { ...corpusHeader(b, 'commit2files', newestFirst.length), blank_jsdoc: false, count: newestFirst.length, generator: GENERATOR, source_commits: source, ...sizes };
    const tasks = newestFirst.map((t, i) => ({ id: `${slug}-c2f-${String(i + 1).padStart(4, '0')}`, query: t.query, gold: t.gold, commit: t.commit, type: t.type }));
    writeFileSync(path.join(outDir, file), jsonl([header, ...tasks]));
    entry.kinds?.push('commit2files');
    entry.commit2files = { tasks: tasks.length, eligible: b.commit2filesEligible, source_commits: range, file };
  }
  if (entry.kinds?.length === 0) entry.skipped = 'no task of either kind passed the rules';
  return entry;
}

function readManifest(): ManifestEntry[] {
  try {
    return (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { repositories: ManifestEntry[] }).repositories;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: '/tmp/codescout-train' },
      repos: { type: 'string' },
      'max-tasks': { type: 'string' },
      mirrors: { type: 'string', default: '/work/.mirror' },
      seed: { type: 'string' },
      'max-files': { type: 'string' },
      'max-bytes': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) usage('Builds training task sets from repository mirrors.');
  const repos = values.repos ? values.repos.split(',').map((r) => r.trim()).filter((r) => r !== '') : [...TRAINING_REPOSITORIES];
  for (const r of repos) {
    if (DEV_REPOSITORIES.has(r)) usage(`${r} is a dev set's repository; it must never become training data.`);
    if (!TRAINING_REPOSITORIES.includes(r)) usage(`${r} is not one of the training repositories of issue 14 (scripts/train/repositories.ts).`);
  }
  const outDir = path.resolve(values.out);
  mkdirSync(outDir, { recursive: true });
  const maxTasks = positiveInt(values['max-tasks'], '--max-tasks', 150);
  const limits = { maxFiles: positiveInt(values['max-files'], '--max-files', 600), maxBytes: positiveInt(values['max-bytes'], '--max-bytes', 4_000_000), maxFileBytes: 256 * 1024 };
  const seed = positiveInt(values.seed, '--seed', 14);

  const entries = new Map(readManifest().map((e) => [e.repo, e]));
  process.stdout.write(`${'repository'.padEnd(24)} ${'commit'.padEnd(12)} lang  files    bytes  d2c  c2f  note\n`);
  for (const repo of repos) {
    const started = performance.now();
    const built = buildRepo({ repo, mirrorRoot: values.mirrors, limits, maxTasks, maxCommitsScanned: 20000, seed });
    const entry = writeSets(built, outDir);
    if (entry.skipped?.startsWith('no mirror') && FETCH_NOTES[repo]) entry.skipped = `${entry.skipped} (${FETCH_NOTES[repo]})`;
    entries.set(repo, entry);
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    const cols = [repo.padEnd(24), (entry.commit ?? '-').slice(0, 12).padEnd(12), (entry.language === 'typescript' ? 'ts' : entry.language === 'javascript' ? 'js' : '-').padEnd(4), String(entry.corpus_files ?? '-').padStart(6), String(entry.corpus_bytes ?? '-').padStart(8)];
    const counts = [String(entry.doc2code?.tasks ?? 0).padStart(4), String(entry.commit2files?.tasks ?? 0).padStart(4)];
    process.stdout.write(`${cols.join(' ')} ${counts.join(' ')}  ${entry.skipped ?? `${secs} s`}\n`);
  }
  const ordered = TRAINING_REPOSITORIES.filter((r) => entries.has(r)).map((r) => entries.get(r) as ManifestEntry);
  const total = (k: 'doc2code' | 'commit2files'): number => ordered.reduce((n, e) => n + (e[k]?.tasks ?? 0), 0);
  const manifest = { generator: GENERATOR, split: 'train', seed, max_tasks_per_kind: maxTasks, corpus_limits: limits, totals: { doc2code: total('doc2code'), commit2files: total('commit2files') }, repositories: ordered };
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`total: ${manifest.totals.doc2code} doc2code + ${manifest.totals.commit2files} commit2files tasks in ${outDir}; manifest ${path.relative(process.cwd(), MANIFEST)}\n`);
}

main();
