// What an e-mailed auth link left in the URL fragment when it opened the app: a recovery session
// (#access_token=…&type=recovery) or an error (#error=access_denied&error_code=otp_expired…). Read
// once when this module loads, before supabase-js consumes the fragment and clears it (./supabase.ts
// imports this module first), so the guards know a recovery session arrived before they would send
// the signed-in user to /.

export interface AuthLinkLanding {
  /** GoTrue's link type ('recovery', …) when it carried a session. */
  type: string | null;
  accessToken: string | null;
  /** error_code (or error) when the link was refused, e.g. used twice or expired. */
  error: string | null;
}

export function parseAuthLink(hash: string): AuthLinkLanding | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const accessToken = params.get('access_token');
  const error = params.get('error_code') || params.get('error');
  if (!accessToken && !error) return null;
  return { type: params.get('type'), accessToken, error };
}

let landing: AuthLinkLanding | null = typeof window === 'undefined' ? null : parseAuthLink(window.location.hash);

/** Whether this session is the one a recovery link just opened (true once). */
export function takeRecoveryLanding(accessToken: string): boolean {
  if (landing?.type !== 'recovery' || landing.accessToken !== accessToken) return false;
  landing = null;
  // supabase-js emptied the fragment but left the '#'.
  if (window.location.href.endsWith('#'))
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return true;
}

/** The refused link's error, until clearAuthLinkError(). */
export const authLinkError = (): string | null => landing?.error ?? null;

/** Forgets the refused link's error (shown once) and takes it out of the address bar. */
export function clearAuthLinkError(): void {
  if (!landing?.error) return;
  landing = null;
  if (/(^#|&)error/.test(window.location.hash)) {
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }
}
