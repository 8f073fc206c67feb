// Where the API is, known without loading supabase-js: the SPA is configured at build time from
// VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY; without them it talks to the local backend
// (`npm start`, port 54321).
import { LOCAL_ANON_KEY, LOCAL_API_URL } from './api-defaults';

export const SUPABASE_URL: string = import.meta.env.VITE_SUPABASE_URL || LOCAL_API_URL;
export const SUPABASE_ANON_KEY: string = import.meta.env.VITE_SUPABASE_ANON_KEY || LOCAL_ANON_KEY;

/** Where supabase-js keeps the session (its default key for this URL). */
export const AUTH_STORAGE_KEY = `sb-${new URL(SUPABASE_URL).hostname.split('.')[0]}-auth-token`;

/**
 * Whether this visit may have a session: one stored by supabase-js, or an e-mailed link's tokens (or
 * error) in the URL. When neither, the visitor is signed out and the first page can paint without
 * supabase-js (~30 KB gzip), which then loads in the background for the sign-in.
 */
export function mayHaveSession(): boolean {
  try {
    if (localStorage.getItem(AUTH_STORAGE_KEY)) return true;
  } catch {
    return true; // storage unavailable: let supabase-js decide
  }
  return /(^#|&)(access_token|error)=/.test(window.location.hash) || new URLSearchParams(window.location.search).has('code');
}

/** The account of the session stored on this device, without supabase-js; null signed out. */
export function storedAccountId(): string | null {
  try {
    return (JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null') as { user?: { id?: string } } | null)?.user?.id ?? null;
  } catch {
    return null;
  }
}

/** The SPA's one supabase-js client (src/platform/supabase.ts), loaded on first use. */
export const loadSupabase = () => import('./supabase').then((m) => m.supabase);
