import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import tls from 'node:tls';

/** Redirects followed before a download gives up. */
const MAX_REDIRECTS = 5;
/** A connection that sends nothing for this long is dropped. */
const IDLE_TIMEOUT_MS = 30_000;

/** Options of {@link downloadFile} and {@link downloadText}. */
export interface DownloadOptions {
  /** An http:// proxy URL (`HTTPS_PROXY`); https targets are tunnelled through it with CONNECT. */
  readonly proxy?: string;
  readonly idleTimeoutMs?: number;
}

/**
 * Streams a URL (http or https, redirects followed) into a file.
 * @throws Error naming the URL and the HTTP status or network error; the caller wraps it in its typed error.
 */
export async function downloadFile(url: string, file: string, options: DownloadOptions = {}): Promise<void> {
  const res = await get(url, options, 0);
  await pipeline(res, createWriteStream(file));
}

/** Fetches a small text (a checksum file) from a URL. @throws Error as {@link downloadFile}. */
export async function downloadText(url: string, options: DownloadOptions = {}): Promise<string> {
  const res = await get(url, options, 0);
  const parts: Buffer[] = [];
  for await (const part of res) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

async function get(url: string, options: DownloadOptions, redirects: number): Promise<http.IncomingMessage> {
  const target = new URL(url);
  const res = await request(target, options);
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400 && res.headers.location && redirects < MAX_REDIRECTS) {
    res.resume();
    return get(new URL(res.headers.location, target).href, options, redirects + 1);
  }
  if (status !== 200) {
    res.resume();
    throw new Error(`GET ${url} answered HTTP ${status}`);
  }
  return res;
}

/** One GET, directly or through the proxy (CONNECT tunnel for https, absolute-URI request for http). */
async function request(target: URL, options: DownloadOptions): Promise<http.IncomingMessage> {
  const idle = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const proxy = options.proxy ? new URL(options.proxy) : undefined;
  const isHttps = target.protocol === 'https:';
  if (proxy && isHttps) {
    const socket = await tunnel(proxy, target, idle);
    // TLS over the tunnel's socket; servername keeps SNI and the certificate check on the real host.
    return send(https.request(target, { createConnection: () => tls.connect({ socket, servername: target.hostname }) }), idle);
  }
  if (proxy) {
    return send(http.request({ host: proxy.hostname, port: proxy.port || 80, path: target.href, headers: { host: target.host, ...proxyAuth(proxy) } }), idle);
  }
  return send((isHttps ? https : http).request(target), idle);
}

function send(req: http.ClientRequest, idleMs: number): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    req.setTimeout(idleMs, () => req.destroy(new Error(`no data for ${idleMs} ms`)));
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Opens a CONNECT tunnel through an http proxy to the target's host and port. */
function tunnel(proxy: URL, target: URL, idleMs: number): Promise<Socket> {
  const authority = `${target.hostname}:${target.port || 443}`;
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: proxy.hostname,
      port: proxy.port || 80,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyAuth(proxy) },
    });
    req.setTimeout(idleMs, () => req.destroy(new Error(`proxy ${proxy.host} sent nothing for ${idleMs} ms`)));
    req.on('connect', (res, socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new Error(`proxy ${proxy.host} refused CONNECT ${authority} with HTTP ${res.statusCode}`));
    });
    req.on('error', (error) => reject(new Error(`proxy ${proxy.host}: ${error.message}`, { cause: error })));
    req.end();
  });
}

function proxyAuth(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const user = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(user).toString('base64')}` };
}
