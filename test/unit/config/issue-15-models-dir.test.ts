import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultModelsDir, LEGACY_MODELS_DIR, PACKAGE_ROOT, resolveModelSettings } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors.js';

// Issue 15: models live in the user's cache folder (not inside the installed package), overridable, and a model
// provisioned by an earlier version inside the package is still found, read only.

describe('the default models folder (issue 15)', () => {
  it('is $XDG_CACHE_HOME/codescout/models on every platform when XDG_CACHE_HOME is absolute', () => {
    const env = { XDG_CACHE_HOME: '/xdg/cache', HOME: '/home/ada' };
    expect(defaultModelsDir(env, 'linux')).toBe('/xdg/cache/codescout/models');
    expect(defaultModelsDir(env, 'darwin')).toBe('/xdg/cache/codescout/models');
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec asks', () => {
    expect(defaultModelsDir({ XDG_CACHE_HOME: 'cache', HOME: '/home/ada' }, 'linux')).toBe('/home/ada/.cache/codescout/models');
  });

  it('is ~/.cache on Linux, ~/Library/Caches on macOS and %LOCALAPPDATA% on Windows', () => {
    expect(defaultModelsDir({ HOME: '/home/ada' }, 'linux')).toBe('/home/ada/.cache/codescout/models');
    expect(defaultModelsDir({ HOME: '/Users/ada' }, 'darwin')).toBe('/Users/ada/Library/Caches/codescout/models');
    expect(defaultModelsDir({ LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'win32')).toBe('C:\\Users\\ada\\AppData\\Local\\codescout\\models');
    expect(defaultModelsDir({ USERPROFILE: 'C:\\Users\\ada' }, 'win32')).toBe('C:\\Users\\ada\\AppData\\Local\\codescout\\models');
  });

  it('is CODESCOUT_MODELS_DIR when set', () => {
    expect(defaultModelsDir({ CODESCOUT_MODELS_DIR: '/srv/models', XDG_CACHE_HOME: '/xdg' }, 'linux')).toBe('/srv/models');
  });

  it('is never inside the package any more; the package folder is only the read-only fallback', () => {
    const settings = resolveModelSettings({}, { HOME: '/home/ada' });
    expect(settings.modelsDir).toBe(path.join('/home/ada', '.cache', 'codescout', 'models'));
    expect(settings.fallbackModelsDirs).toEqual([path.join(PACKAGE_ROOT, 'index-cache', 'models')]);
    expect(LEGACY_MODELS_DIR).toBe(path.join(PACKAGE_ROOT, 'index-cache', 'models'));
  });

  it('a folder named on purpose (option or CODESCOUT_MODELS_DIR) is the only one used', () => {
    expect(resolveModelSettings({ modelsDir: '/opt/m' }, { HOME: '/h' })).toMatchObject({ modelsDir: '/opt/m', fallbackModelsDirs: [] });
    expect(resolveModelSettings({}, { HOME: '/h', CODESCOUT_MODELS_DIR: '/srv/m' })).toMatchObject({ modelsDir: '/srv/m', fallbackModelsDirs: [] });
    expect(resolveModelSettings({ modelsDir: '/opt/m' }, { CODESCOUT_MODELS_DIR: '/srv/m' }).modelsDir).toBe('/opt/m');
  });
});

describe('the Maven source settings (issue 15)', () => {
  it('default to Maven Central with no proxy', () => {
    expect(resolveModelSettings({}, { HOME: '/h' })).toMatchObject({ mavenUrl: 'https://repo1.maven.org/maven2', httpsProxy: undefined });
  });

  it('take a mirror from CODESCOUT_MAVEN_URL (trailing slashes dropped)', () => {
    expect(resolveModelSettings({}, { CODESCOUT_MAVEN_URL: 'https://mirror.example/maven2//' }).mavenUrl).toBe('https://mirror.example/maven2');
  });

  it('refuse a Maven URL that is not http(s), naming the variable', () => {
    expect(() => resolveModelSettings({}, { CODESCOUT_MAVEN_URL: 'file:///m2' })).toThrow(ConfigError);
    expect(() => resolveModelSettings({}, { CODESCOUT_MAVEN_URL: 'file:///m2' })).toThrow('Set CODESCOUT_MAVEN_URL');
  });

  it('honour HTTPS_PROXY / https_proxy unless NO_PROXY names the host or a parent domain', () => {
    const proxy = 'http://proxy.corp:3128';
    expect(resolveModelSettings({}, { HTTPS_PROXY: proxy }).httpsProxy).toBe(proxy);
    expect(resolveModelSettings({}, { https_proxy: proxy }).httpsProxy).toBe(proxy);
    expect(resolveModelSettings({}, { HTTPS_PROXY: proxy, NO_PROXY: 'localhost,.maven.org' }).httpsProxy).toBeUndefined();
    expect(resolveModelSettings({}, { HTTPS_PROXY: proxy, no_proxy: 'repo1.maven.org' }).httpsProxy).toBeUndefined();
    expect(resolveModelSettings({}, { HTTPS_PROXY: proxy, NO_PROXY: '*' }).httpsProxy).toBeUndefined();
    expect(resolveModelSettings({}, { HTTPS_PROXY: proxy, NO_PROXY: 'example.org' }).httpsProxy).toBe(proxy);
  });
});
