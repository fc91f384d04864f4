/**
 * Builds a doc2code dev set from a Python or Go repository, by the rules of the shared eval README adapted to
 * the language (see eval-sets/README.md): queries from docstrings / doc comments of public symbols, gold the
 * symbols' line ranges, the corpus defined by include/exclude globs at one commit. Reads the repository's git
 * directory only (no checkout); the same arguments always write the same file.
 * Usage: npx tsx scripts/devsets/build-doc2code.ts --repo <git dir> --commit <sha> --language python|go
 *          --github owner/name --name <set name> --id-prefix <p> --include <glob>... [--exclude <glob>...]
 *          [--max-tasks 250] --out <file.jsonl>
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compileCorpusFilter } from '../eval/glob.js';
import { listTree, readBlobs } from '../train/git.js';
import { buildCandidates, sampleCandidates } from './doc2code-tasks.js';
import { goSymbols } from './go-symbols.js';
import { pythonSymbols } from './python-symbols.js';
import type { SymbolExtractor } from './symbols.js';

const GENERATOR = 'scripts/devsets/build-doc2code.ts';
const LANGUAGES: Readonly<Record<string, { extract: SymbolExtractor; blankRule: string }>> = {
  python: { extract: pythonSymbols, blankRule: 'python-docstrings' },
  go: { extract: goSymbols, blankRule: 'go-doc-comments' },
};
const USAGE = 'Usage: npx tsx scripts/devsets/build-doc2code.ts --repo <git dir> --commit <sha> --language python|go --github owner/name --name <set name> --id-prefix <prefix> --include <glob>... [--exclude <glob>...] [--max-tasks N] --out <file.jsonl>';

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      repo: { type: 'string' }, commit: { type: 'string' }, language: { type: 'string' }, github: { type: 'string' },
      name: { type: 'string' }, 'id-prefix': { type: 'string' }, out: { type: 'string' },
      include: { type: 'string', multiple: true }, exclude: { type: 'string', multiple: true }, 'max-tasks': { type: 'string' },
    },
  });
  const need = (flag: keyof typeof values): string => {
    const v = values[flag];
    return typeof v === 'string' && v !== '' ? v : usage(`--${flag} is required.`);
  };
  const gitDir = need('repo');
  const language = LANGUAGES[need('language')] ?? usage(`--language must be ${Object.keys(LANGUAGES).join(' or ')}.`);
  const include = values.include ?? usage('--include is required (one or more globs).');
  const exclude = values.exclude ?? [];
  const maxTasks = Number(values['max-tasks'] ?? 250);
  if (!Number.isInteger(maxTasks) || maxTasks < 1) usage(`--max-tasks must be a positive integer, got "${values['max-tasks']}".`);
  const commit = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', '--verify', `${need('commit')}^{commit}`]).toString().trim();

  const keep = compileCorpusFilter(include, exclude);
  const files = listTree(gitDir, commit).filter((f) => keep(f.path));
  if (files.length === 0) usage(`No file of ${commit} matches the include/exclude globs.`);
  const blobs = readBlobs(gitDir, files.map((f) => f.blob));
  const symbols = files.flatMap((f) => language.extract(f.path, (blobs.get(f.blob) as Buffer).toString('utf8')));
  const { candidates, counts } = buildCandidates(symbols);
  const tasks = sampleCandidates(candidates, maxTasks).map((c, i) => ({ id: `${need('id-prefix')}-d2c-${String(i + 1).padStart(4, '0')}`, query: c.query, gold: c.gold }));

  const header = {
    type: 'header', name: need('name'), kind: 'doc2code', split: 'dev', repo: need('github'), commit, include, exclude,
    blank_jsdoc: false, blank_rule: language.blankRule, count: tasks.length, generator: GENERATOR,
    corpus_files: files.length, corpus_bytes: files.reduce((n, f) => n + f.bytes, 0),
  };
  writeFileSync(need('out'), [header, ...tasks].map((r) => JSON.stringify(r)).join('\n') + '\n');
  process.stderr.write(
    `${header.name}: ${files.length} files, ${header.corpus_bytes} bytes; ${counts.symbols} public symbols, ${counts.documented} documented, ` +
      `${counts.noQuery} without a usable query, ${counts.ambiguous} ambiguous; ${counts.candidates} candidates, ${tasks.length} tasks -> ${need('out')}\n`,
  );
}

main();
