import { describe, expect, it } from 'vitest';
import { parseReply, parseRequest, SERVE_PROTOCOL } from '../../../src/serve/protocol.js';

const head = { protocol: SERVE_PROTOCOL, version: '0.1.0', pid: 42 };
const index = { root: '/repo', indexDir: '/repo/index-cache/repo-0123456789', model: 'all-MiniLM-L6-v2' };

describe('serve protocol', () => {
  it('reads each reply status with its fields', () => {
    expect(parseReply(JSON.stringify({ ...head, status: 'answered', stdout: 'a\n', stderr: '', exitCode: 6 }))).toEqual({ ...head, status: 'answered', stdout: 'a\n', stderr: '', exitCode: 6 });
    expect(parseReply(JSON.stringify({ ...head, status: 'rejected', stdout: '', stderr: '', message: 'bad', exitCode: 2 }))).toMatchObject({ status: 'rejected', message: 'bad', exitCode: 2 });
    expect(parseReply(JSON.stringify({ ...head, status: 'declined', reason: 'another index' }))).toMatchObject({ status: 'declined', reason: 'another index' });
    expect(parseReply(JSON.stringify({ ...head, status: 'pong' }))).toEqual({ ...head, status: 'pong' });
  });

  it('refuses replies that are not of this shape', () => {
    for (const line of ['', 'null', '[]', 'not json', JSON.stringify({ ...head, status: 'answered', stdout: 'a' }), JSON.stringify({ ...head, status: 'answered', stdout: 1, stderr: '', exitCode: 0 }), JSON.stringify({ status: 'pong' }), JSON.stringify({ ...head, status: 'rejected', stdout: '', stderr: '', exitCode: 1.5, message: 'x' })]) {
      expect(parseReply(line), line).toBeNull();
    }
  });

  it('reads requests, and refuses a request without its index or with options of the wrong type', () => {
    const request = { protocol: SERVE_PROTOCOL, version: '0.1.0', command: 'search', index, text: 'x', options: { k: '3', json: true, include: ['src/**'] } };
    expect(parseRequest(JSON.stringify(request))).toEqual(request);
    expect(parseRequest(JSON.stringify({ protocol: 1, version: '', command: 'ping' }))).toEqual({ protocol: 1, version: '', command: 'ping' });
    expect(parseRequest(JSON.stringify({ ...request, index: { root: '/repo' } }))).toBeNull();
    expect(parseRequest(JSON.stringify({ ...request, options: { k: 3 } }))).toBeNull();
    expect(parseRequest(JSON.stringify({ ...request, command: 'index' }))).toBeNull();
  });
});
