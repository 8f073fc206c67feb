// `deno test` (npm test runs it; npm run test:functions alone): the Bunny adapter's pure parts. The CDN
// token is checked against vectors published by Bunny (BunnyWay/BunnyCDN.TokenAuthentication,
// e2e/vectors.json: key "SecurityKey", expires 1598024587), so it matches Bunny's edge and not only our
// fake. The API, TUS and webhook paths run against scripts/fake-bunny in
// tests/integration/platform/fake-bunny.test.ts.
import assert from 'node:assert/strict';
import { bunnyConfigFromEnv, ipBytes, signCdnToken } from './bunny.ts';
import { videoHost } from './index.ts';

const vector = { key: 'SecurityKey', expires: 1598024587 };

Deno.test("CDN tokens equal Bunny's published vectors", async () => {
  assert.equal(await signCdnToken({ ...vector, signaturePath: '/300kb.jpg' }), 'HS256-o10JRWlsAItyAsdKS6jJKjabHN4FrFsplDHPV1idcX4');
  assert.equal(await signCdnToken({ ...vector, signaturePath: '/abc', params: { token_path: '/abc' } }), 'HS256-uVZvT3SbEoVKYJyDJgbcsDmSFf73cv-uNUVaJiKWpbQ');
  assert.equal(await signCdnToken({ ...vector, signaturePath: '/300kb.jpg', params: { limit: '1000' } }), 'HS256-DAVapqNNED3Z7JkjRTYX0UOIHNtbHEuuhRNEc4A7mMQ');
  // Bound to an IP: "1-" and the address's bytes (an IPv6 address by its /64).
  assert.equal(await signCdnToken({ ...vector, signaturePath: '/abc', params: { token_path: '/abc' }, userIp: '1.2.3.4' }), 'HS256-1-wag9tC0r1QWfg-2eMj5QcdzgPLCIdQb-D0WVU1Mhg2w');
  assert.equal(await signCdnToken({ ...vector, signaturePath: '/300kb.jpg', userIp: '2001:0db8:85a3:0000:0000:8a2e:0370:7334' }), 'HS256-1-Z1BaGdhTZdU4iANcyKpurFR2VgCNdqC6hlBv5x_TyaI');
  assert.equal(await signCdnToken({ ...vector, signaturePath: '/300kb.jpg', userIp: '2001:db8:85a3::1' }), 'HS256-1-Z1BaGdhTZdU4iANcyKpurFR2VgCNdqC6hlBv5x_TyaI');
});

Deno.test('IP bytes: IPv4, IPv4-mapped IPv6 as IPv4, IPv6 by its /64; nonsense refused', () => {
  assert.deepEqual([...ipBytes('10.0.0.255')], [10, 0, 0, 255]);
  assert.deepEqual([...ipBytes('::ffff:10.0.0.255')], [10, 0, 0, 255]);
  assert.deepEqual([...ipBytes('::1')], new Array(16).fill(0));
  assert.deepEqual([...ipBytes('fe80::1:2:3:4')], [0xfe, 0x80, 0, 0, 0, 0, 0, 0, ...new Array(8).fill(0)]);
  for (const bad of ['1.2.3', '256.1.1.1', '1::2::3', 'abc', '', '1:2:3:4:5:6:7:8:9']) assert.throws(() => ipBytes(bad), bad);
});

Deno.test('VIDEO_HOST unset: no host (Storage as before); bunny without a secret: an error naming it', () => {
  const secrets = (values: Record<string, string>) => (name: string) => values[name];
  assert.equal(videoHost(secrets({})), null);
  assert.equal(videoHost(secrets({ VIDEO_HOST: ' ' })), null);
  const complete = { BUNNY_LIBRARY_ID: '42', BUNNY_API_KEY: 'k', BUNNY_CDN_HOST: 'vz-1.b-cdn.net/', BUNNY_TOKEN_KEY: 't', BUNNY_WEBHOOK_SECRET: 'r' };
  assert.deepEqual(bunnyConfigFromEnv(secrets(complete)), {
    apiUrl: 'https://video.bunnycdn.com',
    libraryId: '42',
    apiKey: 'k',
    cdnUrl: 'https://vz-1.b-cdn.net',
    tokenKey: 't',
    tusUrl: 'https://video.bunnycdn.com/tusupload',
    webhookSecret: 'r',
  });
  assert.ok(videoHost(secrets({ VIDEO_HOST: 'bunny', ...complete })));
  assert.throws(() => videoHost(secrets({ VIDEO_HOST: 'bunny', ...complete, BUNNY_TOKEN_KEY: '' })), /BUNNY_TOKEN_KEY/);
  assert.throws(() => videoHost(secrets({ VIDEO_HOST: 'panda' })), /unknown video host/);
});
