// @vitest-environment node
// The fake pull zone's token check against the URLs Bunny publishes as its reference
// (BunnyWay/BunnyCDN.TokenAuthentication, e2e/vectors.json: key "SecurityKey", expires 1598024587), so
// the fake accepts what Bunny's edge accepts; and what it refuses: another path, IP, expiry or key.
import { describe, expect, it } from 'vitest';
import { addressBytes, checkCdnRequest } from './cdn-token.ts';

const key = 'SecurityKey';
const now = 1598024000;
const check = (url: string, clientIp = '203.0.113.9', o: { key?: string; now?: number } = {}) => checkCdnRequest({ url, clientIp, key: o.key ?? key, now: o.now ?? now });

describe("the fake CDN's token check", () => {
  it("accepts Bunny's published URLs: plain, with parameters, a token_path, bound to an IPv4 or IPv6 /64", () => {
    expect(check('/300kb.jpg?token=HS256-o10JRWlsAItyAsdKS6jJKjabHN4FrFsplDHPV1idcX4&expires=1598024587')).toBe('/300kb.jpg');
    expect(check('/300kb.jpg?token=HS256-DAVapqNNED3Z7JkjRTYX0UOIHNtbHEuuhRNEc4A7mMQ&limit=1000&expires=1598024587')).toBe('/300kb.jpg');
    expect(check('/abc/300kb.jpg?token=HS256-uVZvT3SbEoVKYJyDJgbcsDmSFf73cv-uNUVaJiKWpbQ&token_path=%2Fabc&expires=1598024587')).toBe('/abc/300kb.jpg');
    expect(check('/abc/300kb.jpg?token=HS256-1-wag9tC0r1QWfg-2eMj5QcdzgPLCIdQb-D0WVU1Mhg2w&token_path=%2Fabc&expires=1598024587', '1.2.3.4')).toBe('/abc/300kb.jpg');
    expect(check('/abc/300kb.jpg?token=HS256-1-wag9tC0r1QWfg-2eMj5QcdzgPLCIdQb-D0WVU1Mhg2w&token_path=%2Fabc&expires=1598024587', '::ffff:1.2.3.4')).toBe('/abc/300kb.jpg');
    const v6 = '/300kb.jpg?token=HS256-1-Z1BaGdhTZdU4iANcyKpurFR2VgCNdqC6hlBv5x_TyaI&expires=1598024587';
    expect(check(v6, '2001:db8:85a3::8a2e:370:7334')).toBe('/300kb.jpg');
    expect(check(v6, '2001:db8:85a3:0:ffff::1')).toBe('/300kb.jpg'); // same /64
    // The path form: the token is the first path segment, the file follows.
    expect(
      check('/bcdn_token=HS256-1-X01Z6A9xAo1_ds1XFf9y8gAIzk_JpmoevOx7EtgMQhY&limit=5000&expires=1598024587/abc/', '1.2.3.4'),
    ).toBe('/abc/');
  });

  it('refuses another file, another IP or /64, a changed parameter, an expired token, another key, no token', () => {
    const pathOnly = '?token=HS256-uVZvT3SbEoVKYJyDJgbcsDmSFf73cv-uNUVaJiKWpbQ&token_path=%2Fabc&expires=1598024587';
    expect(check(`/abd/300kb.jpg${pathOnly}`)).toBeNull();
    expect(check('/300kb.jpg?token=HS256-o10JRWlsAItyAsdKS6jJKjabHN4FrFsplDHPV1idcX4&expires=1598024588')).toBeNull();
    expect(check('/300kb.jpg?token=HS256-DAVapqNNED3Z7JkjRTYX0UOIHNtbHEuuhRNEc4A7mMQ&limit=9999&expires=1598024587')).toBeNull();
    expect(check('/abc/300kb.jpg?token=HS256-1-wag9tC0r1QWfg-2eMj5QcdzgPLCIdQb-D0WVU1Mhg2w&token_path=%2Fabc&expires=1598024587', '1.2.3.5')).toBeNull();
    expect(check('/300kb.jpg?token=HS256-1-Z1BaGdhTZdU4iANcyKpurFR2VgCNdqC6hlBv5x_TyaI&expires=1598024587', '2001:db8:85a4::1')).toBeNull();
    expect(check(`/abc/300kb.jpg${pathOnly}`, undefined, { now: 1598024588 })).toBeNull();
    expect(check(`/abc/300kb.jpg${pathOnly}`, undefined, { key: 'OtherKey' })).toBeNull();
    // Dropping "1-" would sign without the IP: the HMAC no longer matches.
    expect(check('/abc/300kb.jpg?token=HS256-wag9tC0r1QWfg-2eMj5QcdzgPLCIdQb-D0WVU1Mhg2w&token_path=%2Fabc&expires=1598024587', '1.2.3.4')).toBeNull();
    expect(check('/abc/300kb.jpg')).toBeNull();
    expect(check('/abc/300kb.jpg?expires=1598024587')).toBeNull();
  });

  it('reads addresses as the edge signs them', () => {
    expect([...addressBytes('127.0.0.1')!]).toEqual([127, 0, 0, 1]);
    expect([...addressBytes('::ffff:127.0.0.1')!]).toEqual([127, 0, 0, 1]);
    expect([...addressBytes('::1')!]).toEqual(new Array(16).fill(0));
    expect(addressBytes('nope')).toBeNull();
  });
});
