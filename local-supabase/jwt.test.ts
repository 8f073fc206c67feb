// JWT keys as GoTrue and PostgREST use them: HS256 with the secret, and the asymmetric keys of
// `[auth] signing_keys_path` (the signing one chosen by key_ops, each verifying only its own kid),
// and the cache of verified JWTs, which saves the signature check, never the expiry check.
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { readSigningKeys } from './config.ts';
import { JwtError, parseSigningKeys, publicJwks, signAccessToken, signJwt, verifyJwt, verifyJwtCached, type JwtKeys } from './jwt.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const HS256_ONLY: JwtKeys = { jwtSecret: SECRET, signingKeys: null };

/** A key as `supabase gen signing-key --algorithm ES256|RS256` writes it. */
function cliKey(alg: 'ES256' | 'RS256', keyOps = ['sign', 'verify']): Record<string, unknown> {
  const { privateKey } =
    alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', key_ops: keyOps, alg, ext: true };
}

const withKeys = (...jwks: Record<string, unknown>[]): JwtKeys => ({
  jwtSecret: SECRET,
  signingKeys: parseSigningKeys(JSON.stringify(jwks), 'signing_keys.json'),
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('signing keys (GoTrue: the key with "sign" in key_ops signs, tokens name their key by kid)', () => {
  it('signs access tokens with the signing key and its kid, and publishes only public keys', async () => {
    const signing = cliKey('ES256');
    const older = cliKey('RS256', ['verify']);
    const keys = withKeys(older, signing);
    const token = await signAccessToken({ sub: 'u1', role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 60 }, keys);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    expect(header).toEqual({ alg: 'ES256', kid: signing.kid, typ: 'JWT' });
    expect((await verifyJwt(token, keys)).sub).toBe('u1');

    const jwks = publicJwks(keys).keys;
    expect(jwks.map((k) => k.kid)).toEqual([older.kid, signing.kid]);
    for (const k of jwks) {
      expect(k).toMatchObject({ use: 'sig', key_ops: ['verify'] });
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(k).not.toHaveProperty(secret);
    }
    expect(jwks[1]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', x: signing.x, y: signing.y });
    expect(publicJwks(HS256_ONLY)).toEqual({ keys: [] });
  });

  it('still accepts HS256 tokens of the secret (the anon and service-role keys) beside the asymmetric ones', async () => {
    const keys = withKeys(cliKey('RS256'));
    const apiKey = await signJwt({ role: 'anon' }, SECRET, 60);
    expect((await verifyJwt(apiKey, keys)).role).toBe('anon');
    const session = await signAccessToken({ sub: 'u2', role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 60 }, keys);
    expect(JSON.parse(Buffer.from(session.split('.')[0]!, 'base64url').toString()).alg).toBe('RS256');
    expect((await verifyJwt(session, keys)).sub).toBe('u2');
  });

  it('refuses a token signed by another key under our kid, and one whose kid is unknown', async () => {
    const ours = cliKey('ES256');
    const keys = withKeys(ours);
    const theirs = withKeys({ ...cliKey('ES256'), kid: ours.kid });
    const forged = await signAccessToken({ sub: 'x', role: 'service_role' }, theirs);
    await expect(verifyJwt(forged, keys)).rejects.toBeInstanceOf(JwtError);
    const unknown = await signAccessToken({ sub: 'x', role: 'service_role' }, withKeys(cliKey('ES256')));
    await expect(verifyJwt(unknown, keys)).rejects.toBeInstanceOf(JwtError);
  });

  it('refuses HS256 "signed" with the published public key under its kid, and alg none', async () => {
    const ours = cliKey('RS256');
    const keys = withKeys(ours);
    const published = publicJwks(keys).keys[0]!;
    const claims = { sub: 'x', role: 'service_role', exp: Math.floor(Date.now() / 1000) + 60 };
    for (const material of [JSON.stringify(published), String(published.n)]) {
      const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: String(ours.kid) }).sign(new TextEncoder().encode(material));
      await expect(verifyJwt(confused, keys)).rejects.toBeInstanceOf(JwtError);
    }
    // The same confusion done by hand, in case a library refused to sign it.
    const head = b64({ alg: 'HS256', kid: ours.kid, typ: 'JWT' });
    const body = b64(claims);
    const mac = createHmac('sha256', JSON.stringify(published)).update(`${head}.${body}`).digest('base64url');
    await expect(verifyJwt(`${head}.${body}.${mac}`, keys)).rejects.toBeInstanceOf(JwtError);
    await expect(verifyJwt(`${b64({ alg: 'none', kid: ours.kid })}.${body}.`, keys)).rejects.toBeInstanceOf(JwtError);
    await expect(verifyJwt(`${b64({ alg: 'none' })}.${body}.`, HS256_ONLY)).rejects.toBeInstanceOf(JwtError);
  });

  it("reads the CLI's file as GoTrue does: one signing key, a kid each, RS256 or ES256", () => {
    const read = (v: unknown) => () => parseSigningKeys(JSON.stringify(v), 'signing_keys.json');
    expect(read([cliKey('ES256'), cliKey('RS256', ['verify'])])().signer.alg).toBe('ES256');
    expect(read([cliKey('ES256', ['verify'])])).toThrow(/no signing key detected/);
    expect(read([cliKey('ES256'), cliKey('RS256')])).toThrow(/multiple signing keys detected/);
    expect(read([{ ...cliKey('ES256'), kid: undefined }])).toThrow(/has no kid/);
    const k = cliKey('ES256');
    expect(read([k, { ...cliKey('RS256', ['verify']), kid: k.kid }])).toThrow(/two keys have the kid/);
    expect(read([{ ...cliKey('ES256'), alg: 'HS256' }])).toThrow(/RS256 RSA key or an ES256 P-256 key/);
    expect(read([{ ...cliKey('ES256'), d: undefined }])).toThrow(/no private part/);
    expect(read({ keys: [cliKey('ES256')] })).toThrow(/JSON array/);
    expect(() => parseSigningKeys('{', 'signing_keys.json')).toThrow(/signing_keys\.json: not JSON/);
  });
});

describe('readSigningKeys (config.toml, as the Supabase CLI resolves it)', () => {
  it('reads [auth] signing_keys_path from supabase/, lets AUTH_SIGNING_KEYS_PATH win, and names a missing file', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'signing-keys-config-'));
    try {
      mkdirSync(path.join(root, 'supabase'));
      const inProject = cliKey('ES256');
      const elsewhere = cliKey('RS256');
      writeFileSync(path.join(root, 'supabase', 'signing_keys.json'), JSON.stringify([inProject]));
      writeFileSync(path.join(root, 'other.json'), JSON.stringify([elsewhere]));
      const toml = '[auth]\nsigning_keys_path = "./signing_keys.json"\n';
      expect(readSigningKeys('', root)).toBeNull();
      expect(readSigningKeys(toml, root)!.signer.kid).toBe(inProject.kid);
      expect(readSigningKeys(toml, root, { AUTH_SIGNING_KEYS_PATH: path.join(root, 'other.json') })!.signer.kid).toBe(elsewhere.kid);
      expect(readSigningKeys('', root, { AUTH_SIGNING_KEYS_PATH: '../other.json' })!.signer.kid).toBe(elsewhere.kid);
      expect(() => readSigningKeys('[auth]\nsigning_keys_path = "./nada.json"\n', root)).toThrow(/cannot read .*nada\.json/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('verifyJwtCached', () => {
  it('refuses a cached token once it expires', async () => {
    // exp is whole seconds: with 1 s a token signed late in a second expired before its first check
    // (CI, once). 2 s leaves at least one; 2.1 s later it has expired whatever the fraction.
    const token = await signJwt({ role: 'authenticated', sub: 'u1' }, SECRET, 2);
    expect((await verifyJwtCached(token, HS256_ONLY)).sub).toBe('u1');
    expect((await verifyJwtCached(token, HS256_ONLY)).sub).toBe('u1'); // from the cache
    await new Promise((r) => setTimeout(r, 2100));
    await expect(verifyJwtCached(token, HS256_ONLY)).rejects.toEqual(new JwtError('JWT expired', true));
    await expect(verifyJwtCached(token, HS256_ONLY)).rejects.toMatchObject({ expired: true });
  });

  it('does not let a token verified under one secret pass under another', async () => {
    const token = await signJwt({ role: 'service_role' }, SECRET, 60);
    await verifyJwtCached(token, HS256_ONLY);
    await expect(verifyJwtCached(token, { jwtSecret: `${SECRET}-other`, signingKeys: null })).rejects.toBeInstanceOf(JwtError);
  });

  it('does not let a token verified under one set of signing keys pass under another', async () => {
    const keys = withKeys(cliKey('ES256'));
    const token = await signAccessToken({ role: 'service_role', exp: Math.floor(Date.now() / 1000) + 60 }, keys);
    await verifyJwtCached(token, keys);
    await expect(verifyJwtCached(token, withKeys(cliKey('ES256')))).rejects.toBeInstanceOf(JwtError);
    await expect(verifyJwtCached(token, HS256_ONLY)).rejects.toBeInstanceOf(JwtError);
  });

  it('never caches a bad signature', async () => {
    const token = await signJwt({ role: 'service_role' }, `${SECRET}-other`, 60);
    await expect(verifyJwtCached(token, HS256_ONLY)).rejects.toBeInstanceOf(JwtError);
    await expect(verifyJwtCached(token, HS256_ONLY)).rejects.toBeInstanceOf(JwtError);
  });
});
