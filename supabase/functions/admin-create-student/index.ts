// admin-create-student (SPEC §7): staff create a student in their own school (super admin: any school).
// Initial password: the CPF digits when a CPF is given, otherwise DEFAULT_STUDENT_PASSWORD; the
// student must change it at the first access. An e-mail already taken in the same school answers 409
// with its `user_id` (the CSV import enrolls it) and `pending_confirmation` (true: the address was never
// confirmed, so an enrollment stays PENDING until its owner opens the link, mailed again here).
// With `course_id` (the CSV import's course) a new student is enrolled inside the same all-or-nothing
// unit, before their "Acesso liberado" e-mail is queued: the e-mail lists their courses.
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, requireStaff, serviceClient } from '../_shared/supabase.ts';
import { createAccount, findAccountByEmail, resendConfirmation } from '../_shared/users.ts';
import { digits, optionalCpf, optionalString, optionalUuid, requiredEmail, requiredString } from '../_shared/validate.ts';

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireStaff(req, admin);
  // The writes for the caller: the audit log names them and this function (issue 44).
  const audited = serviceClient({ source: 'admin-create-student', actorId: caller.user.id });
  const body = await readJsonBody(req);
  const name = requiredString(body, 'name', 'Nome');
  const email = requiredEmail(body);
  const cpf = optionalCpf(body);
  const phone = optionalString(body, 'phone', 'Telefone', 30);
  const address = optionalString(body, 'address', 'Endereço', 500);
  const schoolId = optionalUuid(body, 'school_id', 'Escola') ?? caller.schoolId;
  if (!schoolId) throw new HttpError(400, 'Informe a escola do aluno', { field: 'school_id' });
  if (!caller.isStaffOf(schoolId)) throw new HttpError(403, 'Você só pode cadastrar alunos da sua escola');
  const courseId = optionalUuid(body, 'course_id', 'Curso');
  if (courseId) {
    const { data: course } = await admin.from('courses').select('id').eq('id', courseId).eq('school_id', schoolId).maybeSingle();
    if (!course) throw new HttpError(400, 'Curso não encontrado nesta escola', { field: 'course_id' });
  }
  const enroll = async (userId: string) => {
    const { error } = await audited.from('enrollments').insert({ user_id: userId, course_id: courseId, status: 'ACTIVE' });
    if (error) throw new HttpError(400, `Não foi possível matricular: ${error.message}`);
  };

  const password = cpf ? digits(cpf) : env('DEFAULT_STUDENT_PASSWORD');
  let userId: string;
  try {
    userId = await createAccount(audited, { email, password, name, schoolId, cpf, phone, address, mustChangePassword: true }, courseId ? enroll : undefined);
  } catch (e) {
    // A student of this same school already has the e-mail: say who, so a bulk import can enroll them.
    // Unconfirmed (possibly a stranger's sign-up with this address): say so, and mail the owner the
    // link again; whatever they are enrolled in stays PENDING until they open it.
    if (e instanceof HttpError && e.status === 409) {
      const existing = await findAccountByEmail(admin, email);
      if (existing && existing.schoolId === schoolId) {
        if (existing.confirmed) throw new HttpError(409, e.message, { user_id: existing.id, pending_confirmation: false });
        await resendConfirmation(admin, email, schoolId);
        throw new HttpError(409, 'Já existe uma conta com este e-mail, aguardando a confirmação do e-mail', { user_id: existing.id, pending_confirmation: true });
      }
    }
    throw e;
  }
  return json({ user_id: userId, email, school_id: schoolId, course_id: courseId, temporary_password: password, password_rule: cpf ? 'cpf' : 'default' }, 201);
});
