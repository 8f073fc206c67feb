// The one supabase-js client of the SPA (its URL and key: api-config.ts). Modules of the first route
// load it with loadSupabase() (api-config.ts) so a signed-out visitor's first paint does not wait
// for it; the pages behind the sign-in import it directly.
import { createClient } from '@supabase/supabase-js';
import type { AppDatabase } from './db';
import { AUTH_STORAGE_KEY, SUPABASE_ANON_KEY, SUPABASE_URL } from './api-config';
import { trackedFetch } from './connection';
// Runs before this module's body: it reads an auth link's URL fragment before the client consumes it.
import './auth-link';

export { SUPABASE_ANON_KEY, SUPABASE_URL };

export const supabase = createClient<AppDatabase>(SUPABASE_URL, SUPABASE_ANON_KEY, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, storageKey: AUTH_STORAGE_KEY },
  // Failures to reach the API turn the "Sem conexão" banner on (connection.ts).
  global: { fetch: trackedFetch },
});
