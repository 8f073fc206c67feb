// What auth e-mails link to, built only from configuration (never from Host, X-Forwarded-Host or
// Referer): the API's external URL for /verify, and a `redirect_to` allowed as GoTrue allows it.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { ServerContext } from '../http.ts';

/** The API's public URL, from config ([api] external_url / API_EXTERNAL_URL) or http://localhost:<port>. */
export function apiBaseUrl(ctx: ServerContext): string {
  return ctx.config.apiExternalUrl ?? `http://localhost:${ctx.config.port}`;
}

/** GoTrue's issuer and link base: the API URL plus /auth/v1. */
export const authBaseUrl = (ctx: ServerContext) => `${apiBaseUrl(ctx)}/auth/v1`;

/**
 * gobwas/glob as GoTrue compiles `additional_redirect_urls` (separators '.' and '/'): `**` is any
 * text, `*` any text without '.' or '/', `?` one such character; everything else is literal.
 */
export function globToRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      out += '.*';
      i++;
    } else if (c === '*') out += '[^./]*';
    else if (c === '?') out += '[^./]';
    else out += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/**
 * GoTrue's isRedirectURLValid: the same host name as site_url, or a match of one of
 * additional_redirect_urls; anything else (or nothing) falls back to site_url.
 */
export function redirectTarget(ctx: ServerContext, requested: string | null | undefined): string {
  const { siteUrl, additionalRedirectUrls } = ctx.config;
  if (!requested) return siteUrl;
  try {
    const u = new URL(requested);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.hostname === new URL(siteUrl).hostname) return requested;
  } catch {
    return siteUrl; // not a URL
  }
  return additionalRedirectUrls.some((p) => globToRegExp(p).test(requested)) ? requested : siteUrl;
}

/** `redirect` with GoTrue's fragment (tokens, or an error, or a message) in place of its own. */
export function withFragment(redirect: string, fragment: URLSearchParams): string {
  const u = new URL(redirect);
  u.hash = fragment.toString();
  return u.toString();
}

/** Link tokens are stored as their SHA-256 only, so a database read gives no working link. */
export const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export function newLinkToken(): { token: string; digest: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, digest: digest(token) };
}

/** GoTrue's mailer_otp_length: the code in OTP e-mails has six digits. */
const OTP_DIGITS = 6;

/** GoTrue's token hash of an e-mailed code: hex SHA-224 of the address and the code, the `token` of its link. */
export const tokenHash = (email: string, otp: string) => createHash('sha224').update(email + otp).digest('hex');

/**
 * A code for an e-mail that carries both a code and a link (GoTrue's OTP e-mails): the link's token
 * is the code's token hash, so either one verifies. Only the SHA-256 of the token hash is stored, like
 * the link tokens above; a six-digit code is no stronger than the per-IP verification limit, as on GoTrue.
 */
export function newEmailOtp(email: string): { otp: string; tokenHash: string; digest: string } {
  const otp = String(randomInt(10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0');
  const hash = tokenHash(email, otp);
  return { otp, tokenHash: hash, digest: digest(hash) };
}

/** The e-mailed /verify link. */
export function verifyUrl(ctx: ServerContext, token: string, type: string, redirect: string): string {
  const q = new URLSearchParams({ token, type, redirect_to: redirect });
  return `${authBaseUrl(ctx)}/verify?${q.toString()}`;
}
