import { describe, expect, it } from 'vitest';
import { namesIdentifier } from '../../../src/retrieve/hybrid-search.js';

describe('namesIdentifier', () => {
  it('spots compound identifiers in a query', () => {
    for (const q of ['where is parseConfig called', 'MAX_FILE_BYTES default', 'the HttpServer class', 'use ref_count here', 'fix getServerDataFilePath']) {
      expect(namesIdentifier(q), q).toBe(true);
    }
  });
  it('leaves plain language alone', () => {
    for (const q of ['add rate limiting to the API endpoints', 'Parse a date', 'Reactive Web Share API.', 'x-y z']) {
      expect(namesIdentifier(q), q).toBe(false);
    }
  });
});

describe('TEST_PATH knows the test files of every chunked language', async () => {
  const { TEST_PATH } = await import('../../../src/retrieve/default-evaluator.js');
  it.each([
    ['src/a.test.ts', true], ['pkg/tests/helpers.py', true], ['pkg/test_session.py', true], ['pkg/session_test.py', true],
    ['server/router_test.go', true], ['src/main/java/FooTest.java', true], ['spec/models/user_spec.rb', true], ['Sources/AppTests.swift', true],
    ['pkg/testing.py', false], ['server/router.go', false], ['src/Attestation.java', false], ['lib/latest.rb', false], ['src/contest.py', false],
  ])('%s -> %s', (path, isTest) => {
    expect(TEST_PATH.test(path)).toBe(isTest);
  });
});
