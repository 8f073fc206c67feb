// TOTP (RFC 6238) as GoTrue uses it through pquerna/otp: HMAC-SHA1, 6 digits, 30-second steps, one
// step of skew either way, a 20-byte secret in unpadded base32. Also imported by tests, which play
// the authenticator app.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
const SKEW_STEPS = 1;
const SECRET_BYTES = 20;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 as authenticator apps accept it: any case, spaces and padding ignored. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of clean) {
    const v = BASE32.indexOf(ch);
    if (v < 0) throw new Error('invalid base32');
    buffer = (buffer << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const newTotpSecret = (): string => base32Encode(randomBytes(SECRET_BYTES));

/** The 30-second step a moment falls in. */
export const totpStep = (unixMs: number): number => Math.floor(unixMs / 1000 / TOTP_PERIOD_SECONDS);

/** The code of one step (RFC 4226 dynamic truncation). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** DIGITS;
  return String(value).padStart(DIGITS, '0');
}

/**
 * The step whose code `code` is, among the current one and one either side; null when none. Every
 * candidate is compared (in constant time), so the answer's timing says nothing about which matched.
 */
export function matchTotp(secret: string, code: string, unixMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(unixMs);
  let found: number | null = null;
  for (let step = now - SKEW_STEPS; step <= now + SKEW_STEPS; step++) {
    if (timingSafeEqual(Buffer.from(totpCode(secret, step)), Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** The otpauth:// URI of the QR code, as pquerna/otp writes it (issuer:account, sorted query). */
export function totpUri(issuer: string, account: string, secret: string): string {
  const label = `${issuer}:${account}`
    .split('')
    .map((ch) => (/[A-Za-z0-9\-._~!$&'()*+,;=:@]/.test(ch) ? ch : encodeURIComponent(ch)))
    .join('');
  const query = new URLSearchParams({
    algorithm: 'SHA1',
    digits: String(DIGITS),
    issuer,
    period: String(TOTP_PERIOD_SECONDS),
    secret,
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
