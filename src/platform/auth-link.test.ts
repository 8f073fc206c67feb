import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAuthLink } from './auth-link';

/** The module as it loads on a page opened with this fragment. */
async function landOn(hash: string) {
  window.history.replaceState(null, '', `/escola-demo${hash}`);
  vi.resetModules();
  return import('./auth-link');
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('auth link fragment', () => {
  it('tells a recovery session from a refused link and from anything else', () => {
    expect(parseAuthLink('#access_token=abc&expires_in=3600&refresh_token=r&token_type=bearer&type=recovery')).toEqual({
      type: 'recovery',
      accessToken: 'abc',
      error: null,
    });
    expect(
      parseAuthLink('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid'),
    ).toEqual({
      type: null,
      accessToken: null,
      error: 'otp_expired',
    });
    expect(parseAuthLink('')).toBeNull();
    expect(parseAuthLink('#secao-2')).toBeNull();
  });

  it('recognises the recovery session of the link once', async () => {
    const link = await landOn('#access_token=abc&refresh_token=r&type=recovery');
    expect(link.takeRecoveryLanding('outro')).toBe(false);
    expect(link.takeRecoveryLanding('abc')).toBe(true);
    expect(link.takeRecoveryLanding('abc')).toBe(false);
  });

  it('keeps a refused link error until it is shown, then clears it from the address', async () => {
    const link = await landOn('#error=access_denied&error_code=otp_expired');
    expect(link.authLinkError()).toBe('otp_expired');
    expect(link.authLinkError()).toBe('otp_expired');
    link.clearAuthLinkError();
    expect(link.authLinkError()).toBeNull();
    expect(window.location.pathname + window.location.hash).toBe('/escola-demo');
  });
});
