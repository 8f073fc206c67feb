// email-preview (issue 22): Settings → E-mails, for the school's staff.
//   POST {school_id}            → {smtp_configured}: whether the SMTP_* secrets are set (without them
//                                 the e-mails wait in the outbox)
//   POST {school_id, kind}      → also {preview: {subject, html, text}}: that message as a student would
//                                 get it, with the school's branding and sender name and example data
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, requireStaff, serviceClient } from '../_shared/supabase.ts';
import { smtpConfigFromEnv } from '../_shared/smtp.ts';
import { EMAIL_KINDS, type EmailKind, OPTIONAL_KINDS, renderMessage } from '../_shared/emails/messages.ts';
import { requiredUuid } from '../_shared/validate.ts';
import { loadEmailSchools } from '../_shared/emails/schools.ts';

const EXAMPLE: Record<EmailKind, Record<string, unknown>> = {
  access_granted: { name: 'Maria da Silva', courses: ['Curso de exemplo'] },
  new_enrollment: { name: 'Maria da Silva', course_title: 'Curso de exemplo', course_id: 'exemplo' },
  payment_pending: { name: 'Maria da Silva', course_title: 'Curso de exemplo', method: 'PIX', amount: 297, pix_code: '00020126580014br.gov.bcb.pix0136exemplo', invoice_url: 'https://www.asaas.com/i/exemplo' },
  payment_reminder: { name: 'Maria da Silva', course_title: 'Curso de exemplo', method: 'BOLETO', amount: 297, boleto_line: '23793.38128 60000.000003 00000.000400 1 84340000029700', boleto_url: 'https://www.asaas.com/b/pdf/exemplo', due_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
  payment_confirmed: { name: 'Maria da Silva', course_title: 'Curso de exemplo', course_id: 'exemplo', amount: 297, method: 'PIX', paid_at: new Date().toISOString() },
  payment_refunded: { name: 'Maria da Silva', course_title: 'Curso de exemplo', amount: 297, reason: 'refund' },
  content_released: { name: 'Maria da Silva', modules: [{ course_title: 'Curso de exemplo', module_title: 'Módulo 2', course_id: 'exemplo' }] },
  we_miss_you: { name: 'Maria da Silva', course_title: 'Curso de exemplo', course_id: 'exemplo', progress_percent: 40 },
  turma_starts_tomorrow: { name: 'Maria da Silva', course_title: 'Curso de exemplo', course_id: 'exemplo', turma_name: 'Turma de março', starts_on: '2026-03-10' },
  certificate_available: { name: 'Maria da Silva', course_title: 'Curso de exemplo', code: 'ABCD-2345-EFGH-JKMN-PQRS-TVWX' },
  checkout_recovery: { name: 'Maria da Silva', course_title: 'Curso de exemplo', course_slug: 'exemplo', session_id: 'exemplo', amount: 297, coupon_code: 'BEMVINDO20', touch: 1 },
  pix_expiring: { name: 'Maria da Silva', course_title: 'Curso de exemplo', method: 'PIX', amount: 297, pix_code: '00020126580014br.gov.bcb.pix0136exemplo', invoice_url: 'https://www.asaas.com/i/exemplo' },
  turma_waitlist_open: { name: 'Maria da Silva', course_title: 'Curso de exemplo', course_id: 'exemplo', course_slug: 'exemplo', turma_name: 'Turma de março', starts_on: '2026-03-10', same_turma: true },
  announcement: { name: 'Maria da Silva', course_title: 'Curso de exemplo', course_id: 'exemplo', turma_name: 'Turma de março', title: 'Aula ao vivo na quinta', body: '<p>A aula ao vivo será na quinta, às 20h.</p>' },
  invoice_available: { name: 'Maria da Silva', course_title: 'Curso de exemplo', amount: 297, number: '00000123', pdf_url: 'https://www.asaas.com/nf/exemplo.pdf' },
};

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireStaff(req, admin);
  const body = await readJsonBody(req);
  const schoolId = requiredUuid(body, 'school_id', 'Escola');
  if (!caller.isStaffOf(schoolId)) throw new HttpError(403, 'Você só pode ver os e-mails da sua escola');
  let smtpConfigured: boolean;
  try {
    smtpConfigured = smtpConfigFromEnv() !== null;
  } catch {
    smtpConfigured = false; // some SMTP_* missing or wrong: sending fails as well
  }
  if (body.kind === undefined) return json({ smtp_configured: smtpConfigured });
  const kind = body.kind as EmailKind;
  if (!EMAIL_KINDS.includes(kind)) throw new HttpError(400, 'Tipo de e-mail desconhecido', { field: 'kind' });

  const school = (await loadEmailSchools(admin, [schoolId])).get(schoolId);
  if (!school) throw new HttpError(404, 'Escola não encontrada');
  const site = env('SITE_URL').replace(/\/+$/, '');
  const preview = renderMessage(
    kind,
    EXAMPLE[kind],
    school,
    {
      login: `${site}/${school.slug}`,
      course: () => `${site}/${school.slug}`,
      certificate: (code) => `${site}/certificado/${code}`,
      checkout: () => `${site}/${school.slug}`,
      buy: () => `${site}/${school.slug}`,
      setPassword: `${site}/acesso`,
      unsubscribe: OPTIONAL_KINDS.includes(kind) ? `${site}/descadastrar` : undefined,
    },
  );
  return json({ smtp_configured: smtpConfigured, preview });
});
