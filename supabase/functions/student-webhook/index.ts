// student-webhook (SPEC §5/§7, issue 11): an outside system (a sales page, a CRM) creates or finds a
// student of a school and enrolls them in a course. POST JSON, header x-webhook-secret = that school's
// secret. Idempotent: the same e-mail never makes two users; a repeated call answers 200 with the same
// ids, updates the expiry and re-activates the enrollment. An existing account whose e-mail was never
// confirmed (anyone can sign up with any address) is enrolled PENDING and answered 202 with
// `pending_confirmation: true`: its owner is mailed the confirmation link, and access starts with it.
import { HttpError, json, readJsonBodyWithBytes, serve } from '../_shared/http.ts';
import { SIGNATURE_HEADER, requireSchoolWebhookAuth } from '../_shared/signature.ts';
import { env, serviceClient } from '../_shared/supabase.ts';
import { createAccount, findAccountByEmail, resendConfirmation } from '../_shared/users.ts';
import { digits, optionalCpf, optionalIsoDate, optionalString, requiredEmail, requiredString, requiredUuid } from '../_shared/validate.ts';

serve(async (req) => {
  // The school's secret as a header, or (safer) a signature made with it: see _shared/signature.ts.
  if (!req.headers.get('x-webhook-secret') && !req.headers.get(SIGNATURE_HEADER)) throw new HttpError(401, 'Segredo do webhook ausente ou inválido');
  const { body, bytes } = await readJsonBodyWithBytes(req);
  const schoolId = requiredUuid(body, 'school_id', 'Escola');
  const admin = serviceClient({ source: 'student-webhook' });
  const { data: secret } = await admin.rpc('get_school_webhook_secret', { p_school_id: schoolId });
  await requireSchoolWebhookAuth(req, bytes, schoolId, secret as string | null, admin);

  const email = requiredEmail(body);
  const name = requiredString(body, 'name', 'Nome');
  const courseId = requiredUuid(body, 'course_id', 'Curso');
  const cohortId = optionalString(body, 'cohort_id', 'Turma', 200);
  const phone = optionalString(body, 'phone', 'Telefone', 30);
  const address = optionalString(body, 'address', 'Endereço', 500);
  const cpf = optionalCpf(body);
  const expiresAt = optionalIsoDate(body, 'expires_at', 'Data de expiração');
  // Issue 40: the turma by its id or name ('turma' or 'turma_id'); the old free-text cohort_id is still
  // stored and, when a turma of the course has that id or name, enrolls in it too.
  const turma = optionalString(body, 'turma', 'Turma', 200) ?? optionalString(body, 'turma_id', 'Turma', 200);
  const { data: course } = await admin.from('courses').select('id').eq('id', courseId).eq('school_id', schoolId).maybeSingle();
  if (!course) throw new HttpError(400, 'Curso não encontrado nesta escola', { field: 'course_id' });
  const turmaId = await findTurma(turma, cohortId);

  /** The turma named by 'turma' (refused when the course has none of that id or name, or it has ended),
   * else by cohort_id when that names a turma not ended (an old label never enrolls into last year's turma). */
  async function findTurma(given: string | null, cohort: string | null): Promise<string | null> {
    for (const [text, required] of [[given, true], [cohort, false]] as const) {
      if (!text) continue;
      const { data, error } = await admin.rpc('turma_for', { p_course_id: courseId, p_turma: text });
      if (error) throw new Error(`turma_for: ${error.message}`);
      if (data) {
        const { data: ended, error: endedError } = await admin.rpc('turma_ended', { p_turma_id: data });
        if (endedError) throw new Error(`turma_ended: ${endedError.message}`);
        if (!ended) return data as string;
        if (required) throw new HttpError(409, 'Turma encerrada', { field: 'turma' });
        continue;
      }
      if (required) throw new HttpError(400, 'Turma não encontrada neste curso', { field: 'turma' });
    }
    return null;
  }

  /** Enrolls this user in the course, or re-activates and updates their enrollment in it. */
  async function enroll(id: string): Promise<{ id: string; status: string; existed: boolean }> {
    const { data: existing } = await admin.from('enrollments').select('id').eq('user_id', id).eq('course_id', courseId).maybeSingle();
    if (existing) {
      const { data, error } = await admin
        .from('enrollments')
        .update({ status: 'ACTIVE', expires_at: expiresAt, ...(cohortId ? { cohort_id: cohortId } : {}), ...(turmaId ? { turma_id: turmaId } : {}) })
        .eq('id', existing.id)
        .select('id, status')
        .single();
      if (error || !data) throw new HttpError(400, `Não foi possível atualizar a matrícula: ${error?.message ?? ''}`);
      return { ...data, existed: true };
    }
    const { data, error } = await admin.from('enrollments').insert({ user_id: id, course_id: courseId, status: 'ACTIVE', expires_at: expiresAt, cohort_id: cohortId, turma_id: turmaId }).select('id, status').single();
    if (error || !data) throw new HttpError(400, `Não foi possível matricular: ${error?.message ?? ''}`);
    return { ...data, existed: false };
  }

  let created = false;
  let temporaryPassword: string | null = null;
  let userId: string;
  let enrollment: Awaited<ReturnType<typeof enroll>>;
  const account = await findAccountByEmail(admin, email);
  if (account) {
    if (account.schoolId !== schoolId) throw new HttpError(409, 'Este e-mail pertence a uma conta de outra escola', { field: 'email' });
    // An existing account gets no password from here: it may be a stranger's sign-up with the buyer's
    // address, and the database keeps its enrollment PENDING until the address is confirmed.
    userId = account.id;
    enrollment = await enroll(userId);
  } else {
    temporaryPassword = cpf ? digits(cpf) : env('DEFAULT_STUDENT_PASSWORD');
    // Enrolled inside the account's all-or-nothing unit, before its "Acesso liberado" e-mail is queued:
    // that e-mail lists the student's courses, and the sender may run between two separate steps.
    const made: { enrollment?: typeof enrollment } = {};
    userId = await createAccount(admin, { email, password: temporaryPassword, name, schoolId, cpf, phone, address, mustChangePassword: true }, async (id) => {
      made.enrollment = await enroll(id);
    });
    if (!made.enrollment) throw new Error('createAccount finished without running its enrollment step');
    enrollment = made.enrollment;
    created = true;
  }
  // The database decides: PENDING while the address is unconfirmed. Its owner gets the link again;
  // access starts when they open it (and choose a password).
  const pending = enrollment.status === 'PENDING';
  if (pending) await resendConfirmation(admin, email, schoolId);
  const fresh = created || !enrollment.existed;
  return json(
    {
      message: pending
        ? 'Matrícula aguardando a confirmação do e-mail do aluno'
        : created
          ? 'Aluno criado e matriculado'
          : enrollment.existed
            ? 'Aluno já matriculado; matrícula atualizada'
            : 'Aluno existente matriculado',
      user_id: userId,
      enrollment_id: enrollment.id,
      email,
      temporary_password: temporaryPassword,
      course_id: courseId,
      school_id: schoolId,
      turma_id: turmaId,
      pending_confirmation: pending,
    },
    pending ? 202 : fresh ? 201 : 200,
  );
});
