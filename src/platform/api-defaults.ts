// The local backend's address and public key (`npm start`, port 54321): what the SPA talks to when
// built without VITE_SUPABASE_URL / VITE_SUPABASE_ANON_KEY. No imports: vite.config.ts reads it too.
export const LOCAL_API_URL = 'http://localhost:54321';

/** The Supabase CLI's public local-development anon key (also in .env.example). */
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
