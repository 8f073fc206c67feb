// send-emails (issue 22): drains public.email_outbox. The scheduler calls it every minute with the
// service role (supabase/migrations: pg_cron + pg_net on the hosted platform; local-supabase runs the
// same schedule); staff and students cannot. Each call claims a batch (claim_emails: leased, so two
// calls at once never take the same message), renders each message with its school's branding, sends
// it through SMTP (the SMTP_* secrets) and reports it: complete_email, or fail_email (retried with
// backoff, failed for good after 5 attempts or at once when the provider refuses the address). One
// message failing never stops the others.
// At most once per message (issue 41, docs/emails.md): the sender first opens and authenticates its SMTP
// session, then records the attempt and the Message-ID it will use (start_email_delivery, which also judges
// the message one last time), then hands the message over. Anything that fails before the body goes out
// (server down or mute, login refused, sender or address refused) is retried with the same Message-ID; after
// it, a 4xx/5xx reply is a refusal (retried or failed as before) and anything else (the connection dropped
// before the "250", or the record of an accepted send failed) leaves the outcome unknown: the message is
// never sent again (email_outcome_unknown, or claim_emails when this sender died).
//   POST {limit?: 1..200}  →  {claimed, sent, retried, failed}
import { HttpError, json, readJsonBody, safeEqual, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';
import { openSmtpSession, smtpConfigFromEnv, SmtpError } from '../_shared/smtp.ts';
import { activeCourseTitles, createAccessLink } from '../_shared/access-links.ts';
import { EMAIL_KINDS, type EmailKind, type EmailLinks, OPTIONAL_KINDS, renderMessage } from '../_shared/emails/messages.ts';
import { loadEmailSchools } from '../_shared/emails/schools.ts';

/** The send failed before the body went out, or the server answered it with a refusal: surely not delivered. */
function surelyNotSent(e: unknown): boolean {
  if (!(e instanceof SmtpError)) return false;
  return !e.bodySent || (e.responseCode !== null && e.responseCode >= 400);
}

interface OutboxRow {
  id: string;
  school_id: string;
  user_id: string | null;
  to_email: string;
  kind: EmailKind;
  payload: Record<string, unknown>;
  attempts: number;
  /** Set by an earlier attempt the server refused: the retry uses the same Message-ID. */
  provider_message_id: string | null;
}
serve(async (req) => {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token || !safeEqual(token, env('SUPABASE_SERVICE_ROLE_KEY'))) throw new HttpError(401, 'Não autorizado');
  const body = await readJsonBody(req);
  const limit = body.limit ?? 50;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw new HttpError(400, 'limit deve ser um número inteiro de 1 a 200', { field: 'limit' });
  }
  // Not configured: nothing is claimed, so the messages wait in the outbox for the secrets.
  const config = smtpConfigFromEnv();
  if (!config) return json({ claimed: 0, sent: 0, retried: 0, failed: 0, smtp: 'não configurado' });

  const admin = serviceClient();
  const { data: claimed, error } = await admin.rpc('claim_emails', { p_limit: limit });
  if (error) throw new Error(`claim_emails: ${error.message}`);
  const rows = (claimed ?? []) as OutboxRow[];
  const counts = { claimed: rows.length, sent: 0, retried: 0, failed: 0 };
  if (!rows.length) return json(counts);

  const schools = await loadEmailSchools(admin, [...new Set(rows.map((r) => r.school_id))]);
  const site = env('SITE_URL').replace(/\/+$/, '');
  const smtp = openSmtpSession(config);
  // The server could not be reached or refused the login: the rest of the batch waits for the next run.
  let unreachable: SmtpError | null = null;
  try {
    for (const row of rows) {
      try {
        const school = schools.get(row.school_id);
        if (!school) throw new Error('escola não encontrada');
        if (!EMAIL_KINDS.includes(row.kind)) throw new Error(`tipo de e-mail desconhecido: ${row.kind}`);
        const links: EmailLinks = {
          login: `${site}/${school.slug}`,
          course: (id) => `${site}/course/${id}`,
          certificate: (code) => `${site}/certificado/${encodeURIComponent(code)}`,
          checkout: (slug, sessionId, offer) =>
            `${site}/checkout/${offer === 'plan' ? 'plano/' : ''}${encodeURIComponent(slug)}?retomar=${encodeURIComponent(sessionId)}`,
          buy: (slug) => `${site}/checkout/${encodeURIComponent(slug)}`,
        };
        const payload = { ...(row.payload ?? {}) };
        if (row.kind === 'access_granted' && row.user_id) {
          // The link to choose a password: 7 days, once (access-links.ts), made now. The courses are read
          // now too when the event did not list them: an import enrolls right after it creates the account.
          links.setPassword = await createAccessLink(admin, site, row.user_id, row.school_id);
          if (!Array.isArray(payload.courses)) payload.courses = await activeCourseTitles(admin, row.user_id, row.school_id);
        }
        // A kind the student may stop: the e-mail's Descadastrar link and the mail apps' one-click stop.
        let headers: Record<string, string> | undefined;
        if (OPTIONAL_KINDS.includes(row.kind) && row.user_id) {
          const { data: token, error: tokenError } = await admin.rpc('email_unsubscribe_token', { p_user_id: row.user_id, p_kind: row.kind });
          if (tokenError) throw new Error(`email_unsubscribe_token: ${tokenError.message}`);
          links.unsubscribe = `${site}/descadastrar#token=${token}`;
          headers = {
            'List-Unsubscribe': `<${env('SUPABASE_URL').replace(/\/+$/, '')}/functions/v1/email-unsubscribe?token=${token}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          };
        }
        const mail = renderMessage(row.kind, payload, school, links);
        const messageId = row.provider_message_id ?? `<${crypto.randomUUID()}@${config.sender.split('@')[1]}>`;
        if (unreachable) throw unreachable;
        try {
          await smtp.ready();
        } catch (e) {
          unreachable = e as SmtpError;
          throw e;
        }
        const started = await admin.rpc('start_email_delivery', { p_id: row.id, p_message_id: messageId });
        if (started.error) throw new Error(`start_email_delivery: ${started.error.message}`);
        // No longer this sender's, or no longer due (skipped): not sent.
        if (started.data !== true) continue;
        try {
          await smtp.send({
            ...mail,
            to: row.to_email,
            from: { name: school.senderName || school.name, address: config.sender },
            replyTo: school.replyTo ?? undefined,
            headers,
            messageId,
          });
        } catch (e) {
          if (!surelyNotSent(e)) {
            await admin.rpc('email_outcome_unknown', { p_id: row.id, p_error: e instanceof Error ? e.message : String(e) });
            counts.failed += 1;
            continue;
          }
          throw e;
        }
        const done = await admin.rpc('complete_email', { p_id: row.id, p_provider_message_id: messageId });
        if (done.error) {
          // The server has the message: recording it failed. Never again (claim_emails marks it when this fails too).
          await admin.rpc('email_outcome_unknown', { p_id: row.id, p_error: `complete_email: ${done.error.message}` });
          counts.failed += 1;
          continue;
        }
        counts.sent += 1;
      } catch (e) {
        const permanent = e instanceof SmtpError && e.permanent;
        const { data: status } = await admin.rpc('fail_email', { p_id: row.id, p_error: e instanceof Error ? e.message : String(e), p_permanent: permanent });
        if (status === 'failed') counts.failed += 1;
        else counts.retried += 1;
      }
    }
  } finally {
    smtp.close();
  }
  return json(counts);
});
