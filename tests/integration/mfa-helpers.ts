// Two-factor sign-in in integration tests: an authenticator app (TOTP codes of local-supabase/auth/totp.ts)
// and turning a factor on through the real supabase-js, so a session becomes aal2.
import { expect } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { totpCode, totpStep } from '../../local-supabase/auth/totp.ts';

/** The authenticator app: codes of one secret, each later than the last one given (a code works once). */
export class Authenticator {
  private last = -Infinity;
  constructor(readonly secret: string) {}
  /** A code of a step not used yet, waiting for the next 30 s window when the accepted ones are used up. */
  async next(): Promise<string> {
    for (;;) {
      const now = totpStep(Date.now());
      const step = Math.max(this.last + 1, now - 1);
      if (step <= now + 1) {
        this.last = step;
        return totpCode(this.secret, step);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  /** The code the app shows right now (maybe used already). */
  current(): string {
    return totpCode(this.secret, totpStep(Date.now()));
  }
}

/** Enrolls and verifies a TOTP factor on a signed-in client: its session becomes aal2. */
export async function turnOnTwoFactor(client: SupabaseClient) {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Celular' });
  expect(error).toBeNull();
  const app = new Authenticator(data!.totp.secret);
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: data!.id, code: await app.next() });
  expect(verified.error).toBeNull();
  return { factorId: data!.id, app };
}

export async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  return data.session!.access_token;
}
