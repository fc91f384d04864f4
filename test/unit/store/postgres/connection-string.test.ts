import { describe, expect, it } from 'vitest';
import { passwordOf, redactConnectionString } from '../../../../src/store/postgres/connection-string.js';

describe('redactConnectionString', () => {
  it.each([
    ['postgres://ci:s3cret@db:5432/code', 'postgres://ci:***@db:5432/code'],
    ['postgresql://ci:s3cret@db/code?sslmode=verify-full&sslrootcert=/ca.pem', 'postgresql://ci:***@db/code?sslmode=verify-full&sslrootcert=/ca.pem'],
    ['postgres://ci:p@ss@word@db/code', 'postgres://ci:***@db/code'],
    ['postgres://ci@db/code?password=s3cret&sslpassword=k3y', 'postgres://ci@db/code?password=***&sslpassword=***'],
    ["host=db user=ci password='s3 cret' dbname=code", 'host=db user=ci password=*** dbname=code'],
    ['host=db user=ci password=s3cret dbname=code', 'host=db user=ci password=*** dbname=code'],
    ['postgres://ci@db/code', 'postgres://ci@db/code'],
  ])('%s', (input, expected) => {
    expect(redactConnectionString(input)).toBe(expected);
  });

  it('finds the password to scrub from driver messages', () => {
    expect(passwordOf('postgres://ci:s%40cret@db/code')).toBe('s@cret');
    expect(passwordOf("host=db password='a\\'b'")).toBe("a'b");
    expect(passwordOf('postgres://ci@db/code')).toBeUndefined();
  });
});
