// student-webhook (SPEC §5/§7, issue 11): an outside system (a sales page, a CRM) creates or finds a
// student of a school and enrolls them in a course. POST JSON, header x-webhook-secret = that school's
// secret. Idempotent: the same e-mail never makes two users; a repeated call answers 200 with the same
// ids, updates the expiry and re-activates the enrollment.
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';
import { createAccount, findUserIdByEmail } from '../_shared/users.ts';
import { digits, optionalCpf, optionalIsoDate, optionalString, requireSecret, requiredEmail, requiredString, requiredUuid } from '../_shared/validate.ts';

serve(async (req) => {
  if (!req.headers.get('x-webhook-secret')) throw new HttpError(401, 'Segredo do webhook ausente ou inválido');
  const body = await readJsonBody(req);
  const schoolId = requiredUuid(body, 'school_id', 'Escola');
  const admin = serviceClient();
  const { data: secret } = await admin.rpc('get_school_webhook_secret', { p_school_id: schoolId });
  requireSecret(req, secret as string | null);

  const email = requiredEmail(body);
  const name = requiredString(body, 'name', 'Nome');
  const courseId = requiredUuid(body, 'course_id', 'Curso');
  const cohortId = optionalString(body, 'cohort_id', 'Turma', 200);
  const phone = optionalString(body, 'phone', 'Telefone', 30);
  const address = optionalString(body, 'address', 'Endereço', 500);
  const cpf = optionalCpf(body);
  const expiresAt = optionalIsoDate(body, 'expires_at', 'Data de expiração');
  const { data: course } = await admin.from('courses').select('id').eq('id', courseId).eq('school_id', schoolId).maybeSingle();
  if (!course) throw new HttpError(400, 'Curso não encontrado nesta escola', { field: 'course_id' });

  let created = false;
  let temporaryPassword: string | null = null;
  let userId = await findUserIdByEmail(admin, email);
  if (userId) {
    const { data: profile } = await admin.from('profiles').select('school_id').eq('id', userId).maybeSingle();
    if (profile?.school_id !== schoolId) throw new HttpError(409, 'Este e-mail pertence a uma conta de outra escola', { field: 'email' });
  } else {
    temporaryPassword = cpf ? digits(cpf) : env('DEFAULT_STUDENT_PASSWORD');
    userId = await createAccount(admin, { email, password: temporaryPassword, name, schoolId, cpf, phone, address, mustChangePassword: true });
    created = true;
  }

  const { data: existing } = await admin.from('enrollments').select('id').eq('user_id', userId).eq('course_id', courseId).maybeSingle();
  let enrollmentId: string;
  if (existing) {
    const { error } = await admin.from('enrollments').update({ status: 'ACTIVE', expires_at: expiresAt, ...(cohortId ? { cohort_id: cohortId } : {}) }).eq('id', existing.id);
    if (error) throw new HttpError(400, `Não foi possível atualizar a matrícula: ${error.message}`);
    enrollmentId = existing.id;
  } else {
    const { data, error } = await admin.from('enrollments').insert({ user_id: userId, course_id: courseId, status: 'ACTIVE', expires_at: expiresAt, cohort_id: cohortId }).select('id').single();
    if (error || !data) throw new HttpError(400, `Não foi possível matricular: ${error?.message ?? ''}`);
    enrollmentId = data.id;
  }
  const fresh = created || !existing;
  return json(
    {
      message: created ? 'Aluno criado e matriculado' : existing ? 'Aluno já matriculado; matrícula atualizada' : 'Aluno existente matriculado',
      user_id: userId,
      enrollment_id: enrollmentId,
      email,
      temporary_password: temporaryPassword,
      course_id: courseId,
      school_id: schoolId,
    },
    fresh ? 201 : 200,
  );
});
