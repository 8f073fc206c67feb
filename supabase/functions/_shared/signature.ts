// Signed webhook requests (issue 19): `x-webhook-signature: t=<unix seconds>,v1=<hex>`, where v1 is
// HMAC-SHA256 of `<t>.<raw body>` keyed with the school's webhook secret. The secret itself never
// travels, the timestamp bounds a replay to SIGNATURE_TOLERANCE_SECONDS, and student-webhook remembers
// each signature it accepted so even that window is closed. Same scheme as Stripe's webhooks.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { HttpError, safeEqual } from './http.ts';

export const SIGNATURE_HEADER = 'x-webhook-signature';
/** How far the signed timestamp may be from our clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface ParsedSignature {
  timestamp: number;
  /** Lowercase hex of each v1 entry (several are allowed, e.g. while a sender rotates). */
  signatures: string[];
}

/** `t=...,v1=...` → its parts, or null when the header is malformed. */
export function parseSignatureHeader(header: string): ParsedSignature | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null;
      signatures.push(value.toLowerCase());
    }
    // Other schemes (v0, future versions) are ignored, as Stripe does.
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/** Lowercase hex HMAC-SHA256 of `<timestamp>.<body>` with `secret`. */
export async function signPayload(secret: string, timestamp: number, body: Uint8Array): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = enc.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.byteLength + body.byteLength);
  message.set(prefix, 0);
  message.set(body, prefix.byteLength);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Constant-time comparison of two equal-length hex strings. */
function hexEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The signature that matches `header` for this body and secret, within the tolerance of `nowSeconds`;
 * null for a malformed header, a stale or future timestamp, or no matching signature.
 */
export async function verifySignature(
  header: string,
  body: Uint8Array,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<{ timestamp: number; signature: string } | null> {
  const parsed = parseSignatureHeader(header);
  if (!parsed || Math.abs(nowSeconds - parsed.timestamp) > SIGNATURE_TOLERANCE_SECONDS) return null;
  const expected = await signPayload(secret, parsed.timestamp, body);
  // Compare every entry (no early exit) so timing does not tell which one matched.
  let match: string | null = null;
  for (const s of parsed.signatures) if (hexEqual(s, expected)) match = s;
  return match ? { timestamp: parsed.timestamp, signature: match } : null;
}

const UNAUTHORIZED = 'Segredo do webhook ausente ou inválido';

/**
 * A school webhook's authentication: the static `x-webhook-secret`, the signed `x-webhook-signature`,
 * or both, where each one present must be right (a stale or altered signature is 401 even beside the
 * right secret). A signature is accepted once: it is remembered until its timestamp expires.
 */
export async function requireSchoolWebhookAuth(req: Request, bytes: Uint8Array, schoolId: string, secret: string | null, admin: SupabaseClient): Promise<void> {
  const given = req.headers.get('x-webhook-secret');
  const signed = req.headers.get(SIGNATURE_HEADER);
  if (!secret || (!given && !signed)) throw new HttpError(401, UNAUTHORIZED);
  if (given !== null && !safeEqual(given, secret)) throw new HttpError(401, UNAUTHORIZED);
  if (signed === null) return;
  const valid = await verifySignature(signed, bytes, secret);
  if (!valid) throw new HttpError(401, 'Assinatura do webhook inválida ou expirada');
  const expiresAt = new Date((valid.timestamp + SIGNATURE_TOLERANCE_SECONDS * 2) * 1000).toISOString();
  const { data: fresh, error } = await admin.rpc('claim_webhook_signature', { p_school_id: schoolId, p_signature: valid.signature, p_expires_at: expiresAt });
  if (error) throw new Error(`claim_webhook_signature: ${error.message}`);
  if (fresh !== true) throw new HttpError(401, 'Esta requisição assinada já foi recebida; assine cada envio de novo');
}
