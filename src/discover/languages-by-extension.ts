import type { Language } from '../types.js';

/** Extensions (lower case, no dot) parsed with tree-sitter or split by headings. */
const STRUCTURED: Readonly<Record<string, Language>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  'c++': 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  rb: 'ruby',
  php: 'php',
  kt: 'kotlin',
  kts: 'kotlin',
  scala: 'scala',
  sc: 'scala',
  swift: 'swift',
  sh: 'bash',
  bash: 'bash',
  vue: 'vue',
  svelte: 'svelte',
  md: 'markdown',
  mdx: 'markdown',
  markdown: 'markdown',
};

/** Other text files worth indexing, chunked by line windows. */
const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  'json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'properties', 'xml',
  'css', 'scss', 'sass', 'less', 'html', 'htm', 'vue', 'svelte', 'astro', 'graphql', 'gql', 'proto',
  'sql', 'prisma', 'py', 'pyi', 'go', 'rs', 'java', 'kt', 'kts', 'scala', 'groovy', 'gradle',
  'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'cs', 'fs', 'swift', 'm', 'mm', 'rb', 'php', 'pl',
  'lua', 'r', 'jl', 'dart', 'ex', 'exs', 'erl', 'hrl', 'clj', 'cljs', 'elm', 'hs', 'ml', 'mli',
  'zig', 'nim', 'sol', 'sh', 'bash', 'zsh', 'fish', 'ps1', 'bat', 'cmd', 'tf', 'hcl', 'nix',
  'txt', 'rst', 'adoc', 'tex', 'csv', 'tsv', 'dockerfile', 'mk', 'cmake',
  'hbs', 'ejs', 'pug', 'njk', 'liquid', 'glsl', 'wgsl',
]);

/** Extensionless file names that are text even without a shebang. */
const TEXT_FILE_NAMES: ReadonlySet<string> = new Set([
  'dockerfile', 'makefile', 'gnumakefile', 'rakefile', 'gemfile', 'procfile', 'justfile',
  'vagrantfile', 'jenkinsfile', 'brewfile', 'license', 'readme', 'changelog', 'codeowners',
]);

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/** Lower-case extension of a POSIX path without the dot (`a.test.ts` -> `ts`), or '' if none. */
export function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function languageOfShebang(firstLine: string): Language | null {
  if (!firstLine.startsWith('#!')) return null;
  if (/\b(ts-node|tsx|deno|bun)\b/.test(firstLine)) return 'typescript';
  if (/\bnode(js)?\b/.test(firstLine)) return 'javascript';
  if (/\bpython[0-9.]*\b/.test(firstLine)) return 'python';
  if (/\b(ba)?sh\b/.test(firstLine)) return 'bash';
  if (/\bruby\b/.test(firstLine)) return 'ruby';
  if (/\bphp\b/.test(firstLine)) return 'php';
  return 'text';
}

/**
 * Language of a file from its path (POSIX or native) and, for extensionless files, its first line
 * (a shebang makes it a script). Returns null for files we do not index (unknown extension).
 */
export function detectLanguage(path: string, firstLine?: string): Language | null {
  const normalized = path.replace(/\\/g, '/');
  const ext = extensionOf(normalized);
  const structured = STRUCTURED[ext];
  if (structured !== undefined) return structured;
  if (TEXT_EXTENSIONS.has(ext)) return 'text';
  const name = baseName(normalized).toLowerCase();
  if (TEXT_FILE_NAMES.has(name)) return 'text';
  if (ext === '' && firstLine !== undefined) return languageOfShebang(firstLine);
  return null;
}

/** True when the path has no extension, so its language may depend on a shebang line. */
export function needsShebang(path: string): boolean {
  return extensionOf(path) === '' && !TEXT_FILE_NAMES.has(baseName(path).toLowerCase());
}
