// email-unsubscribe (issue 22): stops one kind of optional e-mail for one student, no sign-in; the
// e-mail's signed token (public.email_unsubscribe_token) is the credential.
//   POST ?token=…  (body 'List-Unsubscribe=One-Click'): the one-click stop of RFC 8058, which mail apps
//                  offer beside an e-mail from its List-Unsubscribe header
//   POST {token}   the SPA's /descadastrar page, where the e-mail's "Descadastrar" link leads
// → 200 {unsubscribed: kind}, or 400 'Link inválido'. verify_jwt = false (supabase/config.toml).
import { errorResponse, json, readJsonBody, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/supabase.ts';

const TOKEN = /^[0-9a-f-]{36}\.[a-z_]{1,40}\.[0-9a-f]{64}$/;

serve(async (req) => {
  let token = new URL(req.url).searchParams.get('token');
  if (!token && (req.headers.get('content-type') ?? '').includes('application/json')) {
    const body = await readJsonBody(req, 1024);
    token = typeof body.token === 'string' ? body.token : null;
  }
  if (!token || !TOKEN.test(token)) return errorResponse(400, 'Link inválido');
  const { data, error } = await serviceClient().rpc('unsubscribe_email', { p_token: token });
  if (error) return errorResponse(400, 'Link inválido');
  return json({ unsubscribed: data });
});
