// admin-create-school-admin (SPEC §7): only the super admin creates a school's administrator, with
// DEFAULT_ADMIN_PASSWORD, told to change it at the first access. User, profile and role or nothing.
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, requireCaller, serviceClient } from '../_shared/supabase.ts';
import { createAccount } from '../_shared/users.ts';
import { requiredEmail, requiredString, requiredUuid } from '../_shared/validate.ts';

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireCaller(req, admin);
  if (!caller.isSuperAdmin) throw new HttpError(403, 'Apenas o super admin cadastra administradores de escola');
  // The writes for the caller: the audit log names them and this function (issue 44).
  const audited = serviceClient({ source: 'admin-create-school-admin', actorId: caller.user.id });
  const body = await readJsonBody(req);
  const name = requiredString(body, 'name', 'Nome');
  const email = requiredEmail(body);
  const schoolId = requiredUuid(body, 'school_id', 'Escola');
  const { data: school } = await admin.from('schools').select('id').eq('id', schoolId).maybeSingle();
  if (!school) throw new HttpError(400, 'Escola não encontrada', { field: 'school_id' });

  const password = env('DEFAULT_ADMIN_PASSWORD');
  const userId = await createAccount(audited, { email, password, name, schoolId, mustChangePassword: true }, async (id) => {
    const { error } = await audited.from('user_roles').insert({ user_id: id, school_id: schoolId, role: 'SCHOOL_ADMIN' });
    if (error) throw new HttpError(400, `Não foi possível atribuir o papel: ${error.message}`);
  });
  return json({ user_id: userId, email, school_id: schoolId, temporary_password: password }, 201);
});
