import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_UNIX_SOCKET_PATH_BYTES, socketLocation } from '../../../src/serve/socket-path.js';

describe('socketLocation', () => {
  it('puts the socket in the index folder when the path fits', () => {
    expect(socketLocation('/repo/index-cache/repo-0123456789', { platform: 'linux' })).toEqual({
      socketPath: '/repo/index-cache/repo-0123456789/serve.sock',
      privateDir: null,
    });
  });

  it('moves the socket of an index folder this user may not write into the private folder (a read-only index is served too)', () => {
    const loc = socketLocation('/srv/shared/index-cache/repo-0123456789', { platform: 'linux', tmpDir: '/tmp', uid: 1000, indexDirWritable: false });
    expect(loc.privateDir).toBe('/tmp/codescout-1000');
    expect(loc.socketPath).toMatch(/^\/tmp\/codescout-1000\/[0-9a-f]{24}\.sock$/);
  });

  it('moves a socket whose path is too long to bind into a private folder of the user in the temp dir, one per index', () => {
    const deep = `/home/someone/${'a'.repeat(MAX_UNIX_SOCKET_PATH_BYTES)}/index-cache/repo-0123456789`;
    const one = socketLocation(deep, { platform: 'linux', tmpDir: '/tmp', uid: 1000 });
    const other = socketLocation(`${deep}x`, { platform: 'linux', tmpDir: '/tmp', uid: 1000 });
    expect(one.privateDir).toBe('/tmp/codescout-1000');
    expect(one.socketPath).toMatch(/^\/tmp\/codescout-1000\/[0-9a-f]{24}\.sock$/);
    expect(other.socketPath).not.toBe(one.socketPath);
    expect(Buffer.byteLength(path.join(deep, 'serve.sock'))).toBeGreaterThan(MAX_UNIX_SOCKET_PATH_BYTES);
  });

  it('uses a named pipe on Windows', () => {
    expect(socketLocation('C:\\repo\\index-cache\\repo-0123456789', { platform: 'win32' }).socketPath).toMatch(/^\\\\\.\\pipe\\codescout-[0-9a-f]{24}$/);
  });
});
