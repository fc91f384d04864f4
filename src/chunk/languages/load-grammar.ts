import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Loads a grammar package synchronously (the chunker is synchronous). Packages whose entry is ESM with
 * top-level await (tree-sitter-c-sharp) cannot be `require`d: their prebuilt binding is loaded the way their
 * own entry does it, with node-gyp-build from the package folder. Throws when the grammar cannot load.
 */
export function loadGrammar(packageName: string): unknown {
  try {
    return require(packageName) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ASYNC_MODULE' && !/top-level await/.test((error as Error).message)) throw error;
    const entry = require.resolve(packageName);
    const root = join(dirname(entry), '..', '..');
    const nodeGypBuild = require('node-gyp-build') as (dir: string) => Record<string, unknown>;
    const binding = nodeGypBuild(root);
    try {
      binding.nodeTypeInfo = require(join(root, 'src', 'node-types.json')) as unknown;
    } catch {
      // Node type info only adds typed node classes; parsing works without it.
    }
    return binding;
  }
}
