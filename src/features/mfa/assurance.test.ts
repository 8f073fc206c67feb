import type { Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { needsSecondFactor, sessionAal } from './assurance';

const token = (claims: Record<string, unknown>) => `x.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.y`;
const session = (aal: string, statuses: string[]) =>
  ({ access_token: token({ aal, sub: 'u1' }), user: { id: 'u1', factors: statuses.map((status, i) => ({ id: `f${i}`, status, factor_type: 'totp' })) } }) as unknown as Session;

describe('two-factor assurance of a session', () => {
  it('reads aal from the access token', () => {
    expect(sessionAal(session('aal2', []))).toBe('aal2');
    expect(sessionAal(null)).toBeNull();
    expect(sessionAal({ access_token: 'garbage' } as Session)).toBeNull();
  });

  it('owes the code only with a verified factor at aal1', () => {
    expect(needsSecondFactor(session('aal1', ['verified']))).toBe(true);
    expect(needsSecondFactor(session('aal2', ['verified']))).toBe(false);
    expect(needsSecondFactor(session('aal1', ['unverified']))).toBe(false);
    expect(needsSecondFactor(session('aal1', []))).toBe(false);
    expect(needsSecondFactor(null)).toBe(false);
  });
});
