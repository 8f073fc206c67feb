// email-unsubscribe (issue 22): the one-click stop of RFC 8058, which mail apps offer beside an e-mail
// from its List-Unsubscribe header: POST ?token=… (body 'List-Unsubscribe=One-Click'), no sign-in.
// The e-mail's own "Descadastrar" link opens the SPA's /descadastrar page instead, which calls the same
// public.unsubscribe_email. Called without a JWT: verify_jwt = false (supabase/config.toml).
import { errorResponse, json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/supabase.ts';

serve(async (req) => {
  const token = new URL(req.url).searchParams.get('token') ?? '';
  if (!/^[0-9a-f-]{36}\.[a-z_]{1,40}\.[0-9a-f]{64}$/.test(token)) return errorResponse(400, 'Link inválido');
  const { data, error } = await serviceClient().rpc('unsubscribe_email', { p_token: token });
  if (error) return errorResponse(400, 'Link inválido');
  return json({ unsubscribed: data });
});
