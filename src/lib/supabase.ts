// The one supabase-js client of the SPA. Configured at build time from VITE_SUPABASE_URL and
// VITE_SUPABASE_ANON_KEY; without them it talks to the local backend (`npm start`, port 54321).
import { createClient } from '@supabase/supabase-js';
import type { Database } from '@/types/database';
import { trackedFetch } from './connection';
// Runs before this module's body: it reads an auth link's URL fragment before the client consumes it.
import './auth-link';

/** The Supabase CLI's public local-development anon key (also in .env.example). */
const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

export const SUPABASE_URL: string = import.meta.env.VITE_SUPABASE_URL || 'http://localhost:54321';
export const SUPABASE_ANON_KEY: string = import.meta.env.VITE_SUPABASE_ANON_KEY || LOCAL_ANON_KEY;

export const supabase = createClient<Database>(SUPABASE_URL, SUPABASE_ANON_KEY, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
  // Failures to reach the API turn the "Sem conexão" banner on (connection.ts).
  global: { fetch: trackedFetch },
});
