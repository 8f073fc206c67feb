// Two-factor sign-in (TOTP) through supabase-js's auth.mfa, as plain functions over a passed client,
// and the school's requirement for its staff (schools.require_staff_mfa).
import type { DbClient as Client } from '@/platform/db';

/** The name the factor gets; one per account, so a second one is never needed. */
export const FACTOR_NAME = 'Aplicativo autenticador';

export interface TotpEnrollment {
  factorId: string;
  /** data: URI of the SVG QR code. */
  qrCode: string;
  /** Base32 secret, for typing into the app by hand. */
  secret: string;
}

/** The verified TOTP factor of the signed-in account, if any (GoTrue's GET /user). */
export async function fetchVerifiedFactor(client: Client): Promise<{ id: string; createdAt: string } | null> {
  const { data, error } = await client.auth.mfa.listFactors();
  if (error) throw error;
  const factor = data.totp[0];
  return factor ? { id: factor.id, createdAt: factor.created_at } : null;
}

/** Starts an enrollment: drops an earlier unfinished one (same name), then asks for a new secret. */
export async function enrollTotp(client: Client, issuer: string): Promise<TotpEnrollment> {
  const listed = await client.auth.mfa.listFactors();
  if (listed.error) throw listed.error;
  for (const f of listed.data.all) {
    if (f.status === 'unverified') {
      const { error } = await client.auth.mfa.unenroll({ factorId: f.id });
      if (error) throw error;
    }
  }
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: FACTOR_NAME, issuer });
  if (error) throw error;
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

/** Checks a code of the app: the session becomes aal2 (and a new factor verified). */
export async function verifyTotp(client: Client, factorId: string, code: string): Promise<void> {
  const { error } = await client.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw error;
}

/** The first verified factor, for the sign-in step. */
export async function signInFactorId(client: Client): Promise<string> {
  const factor = await fetchVerifiedFactor(client);
  if (!factor) throw new Error('Nenhum aplicativo autenticador ativo nesta conta.');
  return factor.id;
}

/** Turns two-factor off: a code first (GoTrue removes a verified factor only from an aal2 session). */
export async function disableTotp(client: Client, factorId: string, code: string): Promise<void> {
  await verifyTotp(client, factorId, code);
  const { error } = await client.auth.mfa.unenroll({ factorId });
  if (error) throw error;
  // The session's token still says aal2 with the factor: take the downgraded one now.
  const refreshed = await client.auth.refreshSession();
  if (refreshed.error) throw refreshed.error;
}

export async function setStaffRequirement(client: Client, schoolId: string, required: boolean): Promise<boolean> {
  const { data, error } = await client.from('schools').update({ require_staff_mfa: required }).eq('id', schoolId).select('require_staff_mfa').single();
  if (error) throw error;
  return data.require_staff_mfa;
}
