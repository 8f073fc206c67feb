// The cache of verified JWTs saves the signature check, never the expiry check.
import { describe, expect, it } from 'vitest';
import { JwtError, signJwt, verifyJwtCached } from './jwt.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';

describe('verifyJwtCached', () => {
  it('refuses a cached token once it expires', async () => {
    // exp is whole seconds: with 1 s a token signed late in a second expired before its first check
    // (CI, once). 2 s leaves at least one; 2.1 s later it has expired whatever the fraction.
    const token = await signJwt({ role: 'authenticated', sub: 'u1' }, SECRET, 2);
    expect((await verifyJwtCached(token, SECRET)).sub).toBe('u1');
    expect((await verifyJwtCached(token, SECRET)).sub).toBe('u1'); // from the cache
    await new Promise((r) => setTimeout(r, 2100));
    await expect(verifyJwtCached(token, SECRET)).rejects.toEqual(new JwtError('JWT expired', true));
    await expect(verifyJwtCached(token, SECRET)).rejects.toMatchObject({ expired: true });
  });

  it('does not let a token verified under one secret pass under another', async () => {
    const token = await signJwt({ role: 'service_role' }, SECRET, 60);
    await verifyJwtCached(token, SECRET);
    await expect(verifyJwtCached(token, `${SECRET}-other`)).rejects.toBeInstanceOf(JwtError);
  });

  it('never caches a bad signature', async () => {
    const token = await signJwt({ role: 'service_role' }, `${SECRET}-other`, 60);
    await expect(verifyJwtCached(token, SECRET)).rejects.toBeInstanceOf(JwtError);
    await expect(verifyJwtCached(token, SECRET)).rejects.toBeInstanceOf(JwtError);
  });
});
