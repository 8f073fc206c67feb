// email-unsubscribe (issues 22 and 46): stops, or starts again, one kind of optional e-mail for one
// student, no sign-in; the e-mail's signed token (public.email_unsubscribe_token) is the credential.
//   POST ?token=…  body 'List-Unsubscribe=One-Click': the one-click stop of RFC 8058, which mail apps
//                  offer beside an e-mail from its List-Unsubscribe header; it stops the kind at once
//   GET  ?token=…  a person (or a link scanner) opening that address: changes nothing, and leads to the
//                  SPA's /descadastrar page, which asks before stopping
//   POST {token, action?: 'unsubscribe' | 'resubscribe'}: the /descadastrar page's "Não quero mais
//                  receber estes e-mails" and its "Desfazer"
// → 200 {unsubscribed: kind} or {resubscribed: kind}, or 400 'Link inválido'. verify_jwt = false (supabase/config.toml).
import { errorResponse, HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';

const TOKEN = /^[0-9a-f-]{36}\.[a-z_]{1,40}\.[0-9a-f]{64}$/;

/** The form body of a one-click POST, at most 1 KB (RFC 8058: 'List-Unsubscribe=One-Click', maybe among other fields). */
async function oneClickBody(req: Request): Promise<boolean> {
  const text = await req.text();
  if (text.length > 1024) throw new HttpError(413, 'Corpo da requisição muito grande');
  return new URLSearchParams(text.trim()).get('List-Unsubscribe') === 'One-Click';
}

serve(
  async (req) => {
    const queryToken = new URL(req.url).searchParams.get('token');
    let token: string | null;
    let action: unknown = 'unsubscribe';
    if (queryToken !== null) {
      // A POST to the header's address is a mail app's one-click: RFC 8058 asks for its body.
      if (!(await oneClickBody(req))) return errorResponse(400, 'Link inválido');
      token = queryToken;
    } else {
      const body = await readJsonBody(req, 1024);
      token = typeof body.token === 'string' ? body.token : null;
      action = body.action ?? 'unsubscribe';
    }
    if (!token || !TOKEN.test(token) || (action !== 'unsubscribe' && action !== 'resubscribe')) return errorResponse(400, 'Link inválido');
    const { data, error } = await serviceClient().rpc(action === 'unsubscribe' ? 'unsubscribe_email' : 'resubscribe_email', { p_token: token });
    if (error) return errorResponse(400, 'Link inválido');
    return json(action === 'unsubscribe' ? { unsubscribed: data } : { resubscribed: data });
  },
  {
    onGet: (req) => {
      const token = new URL(req.url).searchParams.get('token') ?? '';
      const page = `${env('SITE_URL').replace(/\/+$/, '')}/descadastrar${TOKEN.test(token) ? `#token=${token}` : ''}`;
      return Promise.resolve(new Response(null, { status: 303, headers: { Location: page, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } }));
    },
  },
);
