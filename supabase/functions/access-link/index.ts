// access-link (issue 22): the /acesso page spends the token of an "Acesso liberado" e-mail.
//   POST {token}                → 200 {action_link, school_slug}: GoTrue's own recovery link, made now
//                                 (the page sends the browser there; it lands on the school's login page,
//                                 which asks for the new password)
//                                 410 {error, reason: 'used' | 'expired', can_resend: true}: a dead link
//                                 404 {error}: not a link of ours
//   POST {token, resend: true}  → 200 {resent: true}: a dead link mails a new access e-mail, once (409 after)
// Called signed out: verify_jwt = false (supabase/config.toml); the token is the credential.
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';
import { activeCourseTitles, tokenHash } from '../_shared/access-links.ts';

const REASON = { used: 'Este link já foi usado.', expired: 'Este link expirou.' } as const;
interface Redeemed {
  status: 'ok' | 'used' | 'expired' | 'unknown';
  user_id: string | null;
  email: string | null;
  school_id: string | null;
  school_slug: string | null;
}

serve(async (req) => {
  const body = await readJsonBody(req, 4096);
  const token = body.token;
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new HttpError(404, 'Link inválido');
  const admin = serviceClient();
  const hash = await tokenHash(token);
  const resend = body.resend === true;

  // A resend first claims the dead link's one resend; redeeming a dead link then changes nothing.
  if (resend) {
    const { data: claimed, error } = await admin.rpc('claim_access_link_resend', { p_token_hash: hash });
    if (error) throw new Error(`claim_access_link_resend: ${error.message}`);
    if (!claimed) throw new HttpError(409, 'Um novo link já foi enviado para o seu e-mail. Confira sua caixa de entrada.');
  }
  const { data, error } = await admin.rpc('redeem_access_link', { p_token_hash: hash });
  if (error) throw new Error(`redeem_access_link: ${error.message}`);
  const link = (data as Redeemed[])[0];
  if (!link || link.status === 'unknown' || !link.user_id || !link.email || !link.school_id || !link.school_slug) throw new HttpError(404, 'Link inválido');

  if (resend) {
    const { data: profile } = await admin.from('profiles').select('name').eq('id', link.user_id).maybeSingle();
    const { error: queued } = await admin.rpc('enqueue_email', {
      p_school_id: link.school_id,
      p_user_id: link.user_id,
      p_to: link.email,
      p_kind: 'access_granted',
      p_key: `access-resend:${hash}`,
      p_payload: { name: profile?.name ?? '', courses: await activeCourseTitles(admin, link.user_id, link.school_id) },
    });
    if (queued) throw new Error(`enqueue_email: ${queued.message}`);
    return json({ resent: true, school_slug: link.school_slug });
  }
  if (link.status !== 'ok') throw new HttpError(410, REASON[link.status], { reason: link.status, can_resend: true, school_slug: link.school_slug });

  const site = env('SITE_URL').replace(/\/+$/, '');
  const { data: recovery, error: linkError } = await admin.auth.admin.generateLink({
    type: 'recovery',
    email: link.email,
    options: { redirectTo: `${site}/${link.school_slug}` },
  });
  if (linkError || !recovery.properties?.action_link) throw new Error(`generate_link: ${linkError?.message ?? 'sem link'}`);
  return json({ action_link: recovery.properties.action_link, school_slug: link.school_slug });
});
