import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { hashEndUser } from './hash.js';

describe('hashEndUser', () => {
  it('is the hex SHA-256 of the id', async () => {
    // The well-known digest of "abc" (FIPS 180-2, appendix B.1).
    await expect(hashEndUser('abc')).resolves.toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('prepends the salt, UTF-8 encoded', async () => {
    const expected = createHash('sha256').update('pepper·alice@exämple.com', 'utf8').digest('hex');
    await expect(hashEndUser('alice@exämple.com', { salt: 'pepper·' })).resolves.toBe(expected);
    await expect(hashEndUser('alice@exämple.com')).resolves.not.toBe(expected);
  });

  it('rejects an empty id and a salt that is not a string', async () => {
    await expect(hashEndUser('')).rejects.toThrow(ValidationError);
    const error = await hashEndUser(42 as unknown as string, { salt: 7 as unknown as string }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pathText)).toEqual(['id', 'salt']);
  });
});
