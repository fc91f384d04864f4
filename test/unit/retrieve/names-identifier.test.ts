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
