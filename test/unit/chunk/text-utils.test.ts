import { describe, expect, it } from 'vitest';
import { decodeSource } from '../../../src/chunk/decode-source.js';
import { identifierTerms, splitIdentifier } from '../../../src/chunk/identifiers.js';
import { estimateTokens } from '../../../src/chunk/token-estimate.js';

describe('splitIdentifier', () => {
  it.each([
    ['parseHTTPResponse2xx', ['parse', 'http', 'response', '2', 'xx']],
    ['MAX_RETRY_COUNT', ['max', 'retry', 'count']],
    ['getElementById', ['get', 'element', 'by', 'id']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['kebab-case-name', ['kebab', 'case', 'name']],
    ['snake_case', ['snake', 'case']],
    ['__proto__', ['proto']],
    ['$', []],
  ])('%s', (input, expected) => {
    expect(splitIdentifier(input)).toEqual(expected);
  });
});

describe('identifierTerms', () => {
  it('returns distinct terms of all identifiers in order, without one-char terms', () => {
    expect(identifierTerms('const rateLimiter = new RateLimiter(x); rate_limit(a2b);')).toEqual([
      'const', 'rate', 'limiter', 'new', 'limit',
    ]);
  });
});

describe('estimateTokens', () => {
  it('counts punctuation, digit runs and camelCase segments', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a.b')).toBe(3);
    expect(estimateTokens('12345')).toBe(2);
    expect(estimateTokens('getElementById')).toBe(5);
    expect(estimateTokens('function return')).toBe(2);
    expect(estimateTokens('  \n\t ')).toBe(0);
  });

  it('is additive across whitespace', () => {
    const a = 'const x = parseHTTPResponse(2);';
    const b = 'return x?.value ?? null;';
    expect(estimateTokens(`${a}\n${b}`)).toBe(estimateTokens(a) + estimateTokens(b));
  });
});

describe('decodeSource', () => {
  it('strips the BOM and replaces invalid bytes', () => {
    expect(decodeSource(Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0xff, 0x62]))).toBe('a\uFFFDb');
    expect(decodeSource(Buffer.from('héllo', 'utf8'))).toBe('héllo');
  });
});
