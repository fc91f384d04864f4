import { describe, expect, it } from 'vitest';
import { toStoreError } from '../../../../src/store/postgres/connection.js';
import { StoreUnavailableError } from '../../../../src/store/postgres/store-unavailable-error.js';

const TARGET = 'postgres://ci:s3cret@db.internal:5432/codescout';

describe('toStoreError', () => {
  it('maps a deadlock or serialization failure to a one-line conflict error that says to run again, without the password', () => {
    for (const code of ['40P01', '40001']) {
      const error = toStoreError(Object.assign(new Error('deadlock detected'), { code }), TARGET);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).failure).toBe('conflict');
      expect(error.message).toMatch(/aborted a write that conflicted with another session.*Run the command again\.$/);
      expect(error.message).not.toContain('s3cret');
    }
  });

  it('leaves an error that is not about the server as it is', () => {
    const bug = Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' });
    expect(toStoreError(bug, TARGET)).toBe(bug);
  });
});
