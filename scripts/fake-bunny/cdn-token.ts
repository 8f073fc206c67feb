// The fake pull zone's token check: Bunny's advanced token authentication (HMAC-SHA256, "HS256-"), as its
// edge applies it, written here on node:crypto apart from the signer in
// supabase/functions/_shared/video-host/bunny.ts, so that each is tested against Bunny's published vectors
// (cdn-token.test.ts, bunny.test.ts) and against the other (tests/integration/platform/fake-bunny.test.ts).
//   /bcdn_token=<token>&token_path=%2F<dir>%2F&expires=<unix>/<dir>/file   (token in the path)
//   /<dir>/file?token=<token>&token_path=…&expires=<unix>                   (token in the query)
// Signed: the token_path (or the file's path when there is none), expires, the client IP's bytes when the
// token says "HS256-1-", and every other parameter as sorted "k=v&…". A file outside token_path, an
// expired or altered token, or a request from another IP is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/** The file a request asks for, once its token passed; null when it did not. */
export function checkCdnRequest(o: { url: string; clientIp: string; key: string; now?: number }): string | null {
  const url = new URL(o.url, 'http://cdn.invalid');
  let pathname = url.pathname;
  let params = new URLSearchParams(url.search);
  const first = pathname.split('/')[1] ?? '';
  if (first.startsWith('bcdn_token=')) {
    params = new URLSearchParams(first);
    for (const [k, v] of new URLSearchParams(url.search)) params.append(k, v);
    params.set('token', params.get('bcdn_token') ?? '');
    params.delete('bcdn_token');
    pathname = pathname.slice(first.length + 1);
  }
  let filePath: string;
  try {
    filePath = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const token = params.get('token') ?? '';
  const expires = params.get('expires') ?? '';
  params.delete('token');
  params.delete('expires');
  if (!/^\d{1,12}$/.test(expires) || Number(expires) < (o.now ?? Math.floor(Date.now() / 1000))) return null;
  const tokenPath = params.get('token_path');
  if (tokenPath !== null && !filePath.startsWith(tokenPath)) return null;
  const boundToIp = token.startsWith('HS256-1-');
  if (!token.startsWith('HS256-')) return null;
  let ip: Buffer = Buffer.alloc(0);
  if (boundToIp) {
    const bytes = addressBytes(o.clientIp);
    if (!bytes) return null;
    ip = bytes;
  }
  params.sort();
  const signing = [...params].map(([k, v]) => `${k}=${v}`).join('&');
  const mac = createHmac('sha256', o.key)
    .update(Buffer.concat([Buffer.from(`${tokenPath ?? filePath}${expires}`), ip, Buffer.from(signing)]))
    .digest('base64url');
  const expected = Buffer.from(`HS256-${boundToIp ? '1-' : ''}${mac}`);
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? filePath : null;
}

/** A socket's address as the edge signs it: IPv4 (also when IPv4-mapped) as 4 bytes, IPv6 as its /64. */
export function addressBytes(address: string): Buffer | null {
  const v4 = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIPv4(v4)) return Buffer.from(v4.split('.').map(Number));
  if (!isIPv6(address)) return null;
  // Expand "::" to the missing zero groups, then keep the first four groups (the /64).
  const [head = '', tail = ''] = address.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const all = address.includes('::') ? [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)] : groups(address);
  const out = Buffer.alloc(16);
  all.slice(0, 4).forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
