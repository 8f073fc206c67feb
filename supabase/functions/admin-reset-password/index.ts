// admin-reset-password (SPEC §7): sets a temporary password (the one given, or DEFAULT_STUDENT_PASSWORD;
// DEFAULT_ADMIN_PASSWORD for school admins) and forces a change at the next access. The user's
// sessions end (their refresh tokens stop working). Staff reset students (accounts without a role) of
// their own school; the super admin resets anyone but themselves.
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, requireStaff, serviceClient } from '../_shared/supabase.ts';
import { optionalString, requiredUuid } from '../_shared/validate.ts';

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireStaff(req, admin);
  const body = await readJsonBody(req);
  const userId = requiredUuid(body, 'user_id', 'Usuário');
  const given = optionalString(body, 'new_password', 'Senha', 72);
  if (given !== null && given.length < 6) throw new HttpError(400, 'A senha deve ter no mínimo 6 caracteres', { field: 'new_password' });
  if (userId === caller.user.id) throw new HttpError(403, 'Use a tela de perfil para trocar a sua própria senha');

  const [{ data: target }, { data: roles }] = await Promise.all([
    admin.from('profiles').select('id, school_id').eq('id', userId).maybeSingle(),
    admin.from('user_roles').select('role').eq('user_id', userId),
  ]);
  if (!target) throw new HttpError(404, 'Usuário não encontrado');
  const hasRole = (roles ?? []).length > 0;
  const allowed = caller.isSuperAdmin || (!hasRole && caller.isStaffOf(target.school_id));
  if (!allowed) throw new HttpError(403, 'Você não pode redefinir a senha deste usuário');

  const password = given ?? env(hasRole ? 'DEFAULT_ADMIN_PASSWORD' : 'DEFAULT_STUDENT_PASSWORD');
  const { error } = await admin.auth.admin.updateUserById(userId, { password });
  if (error) throw new HttpError(400, `Não foi possível redefinir a senha: ${error.message}`);
  // After the password, never before: a new password clears the flag (a trigger on auth.users), and
  // this one must be changed at the next access. The profile's trigger mirrors it into the metadata.
  // Written for the caller: the audit log names them and this function (issue 44).
  const audited = serviceClient({ source: 'admin-reset-password', actorId: caller.user.id });
  const { error: profileError } = await audited.from('profiles').update({ must_change_password: true }).eq('id', userId);
  if (profileError) throw new HttpError(400, `Não foi possível marcar a troca de senha: ${profileError.message}`);
  return json({ user_id: userId, temporary_password: password });
});
