// Writes codescout's CommonJS entry after `tsc -p tsconfig.build.json` (run by `npm run build`):
// - dist/index.cjs hands over the ES module dist/index.js through require(esm) (Node 20.19+ / 22.12+, no flag), so
//   CommonJS and ESM callers share one instance: one CodeIndex class, one set of error classes;
// - dist/**/*.d.cts mirror the declarations reachable from dist/index.d.ts with `.js` specifiers turned into `.cjs`,
//   so a CommonJS TypeScript project (module node16 or nodenext) type-checks `require('codescout')` without TS1479.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

const ENTRY = `'use strict';
// CommonJS entry of codescout, written by scripts/build-cjs-entry.mjs. codescout is an ES module: Node.js 20.19+ and
// 22.12+ load it with require() without a flag, so this hands over the very module \`import 'codescout'\` loads.
try {
  module.exports = require('./index.js');
} catch (error) {
  if (error && error.code === 'ERR_REQUIRE_ESM') {
    throw new Error(
      "require('codescout') needs a Node.js that loads ES modules with require(): 20.19+ or 22.12+, without " +
        '--no-experimental-require-module (this is ' + process.version + '). ' +
        "Upgrade Node.js, or load it with \`const { openIndex } = await import('codescout')\`.",
      { cause: error },
    );
  }
  throw error;
}
`;

const RELATIVE = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)\.js(['"])/g;

/** The declaration files reachable from dist/index.d.ts through relative imports and re-exports. */
function publicDeclarations() {
  const seen = new Set();
  const queue = [path.join(dist, 'index.d.ts')];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(RELATIVE)) queue.push(path.resolve(path.dirname(file), `${match[2]}.d.ts`));
  }
  return [...seen];
}

for (const file of publicDeclarations()) {
  const text = fs.readFileSync(file, 'utf8').replace(RELATIVE, '$1$2.cjs$3');
  fs.writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text);
}
fs.writeFileSync(path.join(dist, 'index.cjs'), ENTRY);
