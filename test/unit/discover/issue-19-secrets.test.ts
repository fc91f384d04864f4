import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config.js';
import { discoverFiles } from '../../../src/discover/discover-files.js';
import { inspectFile } from '../../../src/discover/file-guards.js';
import { isLiteralSecret } from '../../../src/discover/secret-content.js';
import { secretNameReason } from '../../../src/discover/secret-names.js';
import { createSecretPolicy } from '../../../src/discover/secret-policy.js';
import { ConfigError } from '../../../src/errors.js';
import { discoverySettingsFor } from '../../../src/indexer/discovery-settings.js';
import { cleanFixtures, secretFixtures, type SecretFixture } from '../../helpers/secret-fixtures.js';

// Issue 19, finding 6: secrets were indexed (credentials.json with a private key, secrets.yaml with a live Stripe
// key, passwords in application.properties and docker-compose.yml, settings.py's SECRET_KEY, .dockerconfigjson),
// and .env, id_rsa and *.pem were left out only because their extension is unknown.

let root: string;
let fixtures: SecretFixture[];

async function writeTree(files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  }
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codescout-secrets-'));
  fixtures = secretFixtures();
  await writeTree(Object.fromEntries(fixtures.map((f) => [f.path, f.content])));
  await writeTree(cleanFixtures());
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

describe('issue 19: the default secret policy', () => {
  it('skips every secret fixture with the reason naming its rule, and indexes files that only talk about secrets', async () => {
    const found = await discoverFiles({ root });
    expect(found.skipped).toEqual(fixtures.map(({ path, reason }) => ({ path, reason })).sort(byPath));
    expect(found.files.map((f) => f.path)).toEqual(Object.keys(cleanFixtures()).sort());
  });

  it('never puts the secret itself in a reason', async () => {
    const found = await discoverFiles({ root });
    for (const { path, reason } of found.skipped) {
      const content = fixtures.find((f) => f.path === path)!.content;
      // Secret values have digits; the rule names and key names of the reasons do not.
      const words = content.split(/[\s"'=:,;<>{}]+/).filter((w) => w.length >= 8 && /\d/.test(w));
      expect(words.filter((w) => reason.includes(w))).toEqual([]);
    }
  });

  it('inspectFile (the watcher, reindex) applies the same rules', async () => {
    expect(await inspectFile({ root, absPath: join(root, 'mysite/settings.py'), relPath: 'mysite/settings.py' })).toEqual({
      skipped: { path: 'mysite/settings.py', reason: 'secret: password assignment (line 4)' },
    });
    expect(await inspectFile({ root, absPath: join(root, '.env'), relPath: '.env' })).toEqual({
      skipped: { path: '.env', reason: 'secret: environment file (.env*)' },
    });
    expect('file' in (await inspectFile({ root, absPath: join(root, 'src/users/password.ts'), relPath: 'src/users/password.ts' }))).toBe(true);
  });

  it('lets .env templates and public SSH keys through the name rules', () => {
    expect(['.env.example', '.env.sample', '.env.template', 'keys/id_rsa.pub', 'src/id_utils.ts', 'src/secrets.ts', 'src/credentials.py'].map(secretNameReason))
      .toEqual([null, null, null, null, null, null, null]);
  });

  it('treats references, placeholders, short values and labels as no secret', () => {
    const values = ['${DB_PASSWORD}', '$DB_PASSWORD', '"{{ vault_pw }}"', '!vault', 'ENC(abc123xyz)', '/run/secrets/db', 'changeme123',
      '"your-password"', 'short1!', 'Passwort', '"two words"', 'xxxxxxxxxx', 'env(DB_PASSWORD)'];
    expect(values.filter(isLiteralSecret)).toEqual([]);
    expect(['Tr0ub4dor&3x', "'s3cr3t-Pa55word'", 'averyverylongpassphrase'].filter(isLiteralSecret)).toEqual(['Tr0ub4dor&3x', "'s3cr3t-Pa55word'", 'averyverylongpassphrase']);
  });
});

describe('issue 19: allowing files the secret policy would skip', () => {
  it('an allow glob indexes the files it matches and nothing else', async () => {
    const secrets = createSecretPolicy({ allow: ['mysite/**', 'deploy/secrets.yaml'] });
    const found = await discoverFiles({ root, secrets });
    const indexed = found.files.map((f) => f.path);
    expect(indexed.filter((p) => !(p in cleanFixtures()))).toEqual(['deploy/secrets.yaml', 'mysite/settings.py']);
    expect(found.skipped.length).toBe(fixtures.length - 2);
  });

  it('codescout.json secrets.allow reaches discovery through the config', async () => {
    await writeFile(join(root, 'codescout.json'), JSON.stringify({ $schema: 'x', secrets: { allow: ['src/aws.ts'] } }));
    const config = resolveConfig({ root, cacheDir: join(root, '..', 'cache-unused') });
    expect(config.secretsAllow).toEqual(['src/aws.ts']);
    const found = await discoverFiles(discoverySettingsFor(config, join(root, '..', 'cache-unused', 'x')));
    expect(found.files.map((f) => f.path)).toContain('src/aws.ts');
    expect(found.skipped.map((s) => s.path)).not.toContain('src/aws.ts');
  });

  it.each([
    ['{ "secrets": { "allow": ["a"] ', 'is not valid JSON', 'codescout.json'],
    ['{ "secret": {} }', 'unknown key "secret"', 'codescout.json secret'],
    ['{ "secrets": { "alow": ["a"] } }', 'unknown key "secrets.alow"', 'codescout.json secrets.alow'],
    ['{ "secrets": { "allow": "a" } }', 'secrets.allow must be an array of glob strings', 'codescout.json secrets.allow'],
    ['{ "secrets": { "allow": ["[a"] } }', 'secrets.allow glob "[a" is malformed', 'codescout.json secrets.allow'],
    ['{ "secrets": [] }', 'secrets must be an object', 'codescout.json secrets'],
    ['[]', '(top level) must be an object', 'codescout.json (top level)'],
  ])('codescout.json %s is a ConfigError naming the file and the key', async (text, message, option) => {
    await writeFile(join(root, 'codescout.json'), text);
    let error: unknown;
    try {
      resolveConfig({ root });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(join(root, 'codescout.json'));
    expect((error as ConfigError).message).toContain(message);
    expect((error as ConfigError).option).toBe(option);
    expect((error as ConfigError).exitCode).toBe(2);
  });
});
