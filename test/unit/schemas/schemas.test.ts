import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SCHEMAS, type SchemaName } from '../../../src/index.js';

const ajv = new Ajv({ strict: true, allErrors: true });
const check = (name: SchemaName, value: unknown): boolean => ajv.validate(SCHEMAS[name], value);

const chunk = { symbol: 'throttleRequests', kind: 'function', parent: null, startLine: 9, endLine: 20, relevance: 0.8 };
const file = { path: 'src/net/throttle.ts', relevance: 0.8, reason: 'function throttleRequests matches throttle', chunks: [chunk], missingContext: [], cycle: 1, role: 'answer' };
const cycle = {
  n: 1,
  query: { text: 'throttle', keywords: [], patterns: [], excludes: [], focusAreas: [] },
  hits: 14, high: 1, newTerms: ['bucket'], excluded: [], gaps: [], newFiles: 1, ms: 12,
};
const stats = {
  root: '/r', indexDir: '/r/index-cache/r-1', model: 'all-MiniLM-L6-v2', dimension: 384, revision: 'abc', files: 6, chunks: 14,
  vectors: 14, cachedVectors: 14, chunksWaiting: 0, bytesOnDisk: 4096, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', schemaVersion: 1,
  indexState: 'ready', resetReason: null,
};
const status = { ...stats, storedFilters: null };

describe('SCHEMAS', () => {
  it('has one draft-07 schema per CLI output and MCP tool result, each compiling under ajv strict mode', () => {
    expect(Object.keys(SCHEMAS).sort()).toEqual(
      ['doctor', 'index', 'indexStatus', 'judgeContext', 'judgeRequest', 'judgeResponse', 'modelFetch', 'modelList', 'query', 'reindex', 'retrieveContext', 'search', 'searchCode', 'status', 'watchEvent'],
    );
    for (const schema of Object.values(SCHEMAS)) {
      expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(() => ajv.compile(schema)).not.toThrow();
    }
  });

  it('search: accepts hits, refuses an unknown kind, a line 0 and an extra field', () => {
    const hit = { path: 'src/a.ts', startLine: 1, endLine: 3, symbol: 'f', kind: 'function', score: 0.03 };
    expect(check('search', { hits: [hit] })).toBe(true);
    expect(check('search', { hits: [] })).toBe(true);
    expect(check('search', { hits: [{ ...hit, kind: 'lambda' }] })).toBe(false);
    expect(check('search', { hits: [{ ...hit, startLine: 0 }] })).toBe(false);
    expect(check('search', { hits: [{ ...hit, extra: 1 }] })).toBe(false);
    expect(check('search', [hit])).toBe(false);
  });

  it('issue 15: search hits may carry a similarity in -1..1 and code; search_code adds its budget fields', () => {
    const hit = { path: 'src/a.ts', startLine: 1, endLine: 3, symbol: 'f', kind: 'function', score: 0.03 };
    const withCode = { ...hit, similarity: 0.62, text: 'function f() {}' };
    expect(check('search', { hits: [withCode] })).toBe(true);
    expect(check('searchCode', { hits: [withCode, { ...hit, text: 'function', textTruncated: true }, hit], tokenBudget: 1500, tokensUsed: 6, truncated: true })).toBe(true);
    expect(check('searchCode', { hits: [{ ...hit, similarity: 1.5 }] })).toBe(false);
    expect(check('searchCode', { hits: [{ ...hit, textTruncated: false }] })).toBe(false);
    expect(check('searchCode', { hits: [], tokensUsed: -1 })).toBe(false);
    expect(check('searchCode', { hits: [{ ...hit, code: 'x' }] })).toBe(false);
  });

  it('status and index_status: nullable identity before the first build; index_status needs `watching`', () => {
    expect(check('status', status)).toBe(true);
    expect(check('status', { ...status, model: null, dimension: null, revision: null, createdAt: null, updatedAt: null, schemaVersion: null })).toBe(true);
    expect(check('status', { ...status, files: -1 })).toBe(false);
    expect(check('status', { ...status, files: 1.5 })).toBe(false);
    expect(check('indexStatus', { ...stats, watching: true })).toBe(true);
    expect(check('indexStatus', stats)).toBe(false);
  });

  it('issue 15: status names the globs stored with the index, or null; index_status does not carry them', () => {
    expect(check('status', { ...stats, storedFilters: { include: ['src/**'], exclude: [] } })).toBe(true);
    expect(check('status', stats)).toBe(false);
    expect(check('status', { ...stats, storedFilters: { include: ['src/**'] } })).toBe(false);
    expect(check('status', { ...stats, storedFilters: { include: [], exclude: [], extra: [] } })).toBe(false);
    expect(check('indexStatus', { ...stats, watching: false, storedFilters: null })).toBe(false);
  });

  it('issue 19: an emptied index says so: status needs indexState, search carries it only when not ready', () => {
    const reset = { ...status, files: 0, chunks: 0, indexState: 'reset', resetReason: 'the index database was damaged' };
    expect(check('status', reset)).toBe(true);
    expect(check('status', { ...status, indexState: 'broken' })).toBe(false);
    const { indexState, ...withoutState } = status;
    expect(indexState).toBe('ready');
    expect(check('status', withoutState)).toBe(false);
    expect(check('search', { hits: [], indexState: 'reset', warning: 'run codescout index' })).toBe(true);
    expect(check('search', { hits: [], indexState: 'ready' })).toBe(false);
  });

  it('index counts skipped files; reindex lists them', () => {
    const summary = { root: '/r', files: 6, chunks: 14, embedded: 14, reused: 0, removed: 0, skipped: 1, seconds: 1.2 };
    expect(check('index', summary)).toBe(true);
    expect(check('index', { ...summary, skipped: [{ path: 'a.bin', reason: 'binary' }] })).toBe(false);
    const report = { ...summary, filesChanged: 6, skipped: [{ path: 'a.bin', reason: 'binary' }] };
    expect(check('reindex', report)).toBe(true);
    expect(check('reindex', { ...report, skipped: 1 })).toBe(false);
    const { filesChanged, ...withoutChanged } = report;
    expect(filesChanged).toBe(6);
    expect(check('reindex', withoutChanged)).toBe(false);
  });

  it('query: a RetrievalResult; relevance stays within 0..1 and stoppedBecause is one of three', () => {
    const result = { results: [file], related: [], cycles: [cycle], stoppedBecause: 'enough' };
    expect(check('query', result)).toBe(true);
    expect(check('query', { ...result, stoppedBecause: 'tired' })).toBe(false);
    expect(check('query', { ...result, results: [{ ...file, relevance: 1.2 }] })).toBe(false);
    expect(check('query', { ...result, cycles: [{ ...cycle, query: { text: 'x' } }] })).toBe(false);
  });

  it('retrieveContext: code on chunks, the budget fields required, textTruncated only as true', () => {
    const withCode = { ...file, chunks: [{ ...chunk, text: 'export function throttleRequests() {}' }, { ...chunk, startLine: 30, endLine: 90, text: 'class A {', textTruncated: true }] };
    const result = { status: 'done', results: [withCode], related: [], cycles: [cycle], stoppedBecause: 'max-cycles', tokenBudget: 4000, tokensUsed: 12, truncated: true };
    expect(check('retrieveContext', result)).toBe(true);
    const { status, ...withoutStatus } = result;
    expect(status).toBe('done');
    expect(check('retrieveContext', withoutStatus)).toBe(false);
    const { tokensUsed, ...withoutUsed } = result;
    expect(tokensUsed).toBe(12);
    expect(check('retrieveContext', withoutUsed)).toBe(false);
    expect(check('retrieveContext', { ...result, results: [{ ...file, chunks: [{ ...chunk, textTruncated: false }] }] })).toBe(false);
    // The CLI query output has no budget fields.
    expect(check('query', result)).toBe(false);
  });

  it('judge steps: candidates with a hint and optional code; judge responses need a path and a relevance in 0..1', () => {
    const candidate = { path: 'src/a.ts', hint: { relevance: 0.7, reason: 'close' }, chunks: [{ chunkId: 'c1', symbol: 'a', kind: 'function', parent: null, startLine: 1, endLine: 3, text: 'function a() {}' }] };
    const step = { status: 'judge', sessionId: 's', cycle: 1, maxCycles: 3, candidates: [candidate], tokenBudget: 100, tokensUsed: 4, truncated: false };
    expect(check('judgeContext', step)).toBe(true);
    expect(check('judgeContext', { ...step, status: 'thinking' })).toBe(false);
    expect(check('judgeContext', { ...step, candidates: [{ ...candidate, hint: { relevance: 2, reason: 'x' } }] })).toBe(false);
    const request = { task: { text: 't', keywords: [], patterns: [], excludes: [] }, cycle: 1, maxCycles: 3, learnedTerms: [], focusAreas: [], bands: 'b', candidates: [candidate] };
    expect(check('judgeRequest', request)).toBe(true);
    expect(check('judgeResponse', { evaluations: [{ path: 'src/a.ts', relevance: 0.9, reason: 'r', missingContext: ['definition of B'] }] })).toBe(true);
    expect(check('judgeResponse', { evaluations: [{ path: 'src/a.ts' }] })).toBe(false);
    expect(check('judgeResponse', { evaluations: [{ path: 'src/a.ts', relevance: -0.1 }] })).toBe(false);
    expect(check('judgeResponse', { evaluations: [{ path: 'src/a.ts', relevance: 0.5, extra: 1 }] })).toBe(false);
  });

  it('watchEvent: a ready or an updated line, nothing else', () => {
    expect(check('watchEvent', { event: 'ready', root: '/r', files: 6, chunks: 14 })).toBe(true);
    expect(check('watchEvent', { event: 'updated', changed: 1, removed: 0, fullPass: false, embedded: 1, reused: 0, files: 7, chunks: 15, ms: 40 })).toBe(true);
    expect(check('watchEvent', { event: 'updated', root: '/r', files: 6, chunks: 14 })).toBe(false);
    expect(check('watchEvent', { event: 'stopped' })).toBe(false);
    const updated = { event: 'updated', changed: 1, removed: 0, fullPass: false, embedded: 1, reused: 0, files: 7, chunks: 15, ms: 40 };
    expect(check('watchEvent', { ...updated, paths: { changed: ['src/a.ts'], removed: [] } })).toBe(true);
    expect(check('watchEvent', { ...updated, paths: { changed: ['src/a.ts'] } })).toBe(false);
  });

  it('issue 15: doctor is ok plus closed checks', () => {
    const node = { id: 'node', status: 'ok', detail: 'Node 20.11.1' };
    expect(check('doctor', { ok: true, root: '/r', checks: [node] })).toBe(true);
    expect(check('doctor', { ok: false, root: '/r', checks: [{ id: 'cache-dir', status: 'problem', detail: 'x', fix: 'y' }] })).toBe(true);
    expect(check('doctor', { ok: true, root: '/r', checks: [{ ...node, status: 'warning' }] })).toBe(false);
    expect(check('doctor', { ok: true, root: '/r', checks: [{ ...node, extra: 1 }] })).toBe(false);
  });

  it('modelFetch and modelList', () => {
    const fetched = { model: 'all-MiniLM-L6-v2', dir: '/m', origin: 'maven', dimension: 384, revision: 'abc', seconds: 0.4 };
    expect(check('modelFetch', fetched)).toBe(true);
    expect(check('modelFetch', { ...fetched, origin: 'ftp' })).toBe(false);
    expect(check('modelList', [{ id: 'm', hfRepo: 'X/m', dimension: 384, pooling: 'mean', maxTokens: 256 }])).toBe(true);
    expect(check('modelList', [{ id: 'm' }])).toBe(false);
  });
});
