// tenant-webhook (SPEC §5/§7, issue 11): an outside system creates a school and its administrator.
// POST JSON, header x-webhook-secret = TENANT_WEBHOOK_SECRET. Idempotent on company_slug: the same
// slug with the same e-mail answers 200 with the existing ids; with another e-mail, 409.
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { env, serviceClient } from '../_shared/supabase.ts';
import { createAccount, findUserIdByEmail } from '../_shared/users.ts';
import { optionalString, requireSecret, requiredEmail, requiredSlug, requiredString } from '../_shared/validate.ts';

serve(async (req) => {
  requireSecret(req, Deno.env.get('TENANT_WEBHOOK_SECRET'));
  const body = await readJsonBody(req);
  const email = requiredEmail(body);
  const name = requiredString(body, 'name', 'Nome');
  const companyName = requiredString(body, 'company_name', 'Nome da empresa');
  const slug = requiredSlug(body, 'company_slug', 'Slug da empresa');
  const phone = optionalString(body, 'phone', 'Telefone', 30);
  const address = optionalString(body, 'address', 'Endereço', 500);
  const admin = serviceClient({ source: 'tenant-webhook' });

  const { data: existing } = await admin.from('schools').select('id').eq('slug', slug).maybeSingle();
  if (existing) {
    const userId = await findUserIdByEmail(admin, email);
    const { data: role } = userId
      ? await admin.from('user_roles').select('user_id').eq('user_id', userId).eq('school_id', existing.id).eq('role', 'SCHOOL_ADMIN').maybeSingle()
      : { data: null };
    if (!role) throw new HttpError(409, 'Já existe uma escola com este slug', { field: 'company_slug' });
    return json({ user_id: userId, school_id: existing.id, email, temporary_password: null }, 200);
  }
  if (await findUserIdByEmail(admin, email)) throw new HttpError(409, 'Já existe uma conta com este e-mail', { field: 'email' });

  const { data: school, error } = await admin.from('schools').insert({ slug, name: companyName, member_area_name: companyName }).select('id').single();
  if (error || !school) throw new HttpError(error?.code === '23505' ? 409 : 400, `Não foi possível criar a escola: ${error?.message ?? ''}`, { field: 'company_slug' });
  const password = env('DEFAULT_ADMIN_PASSWORD');
  try {
    const userId = await createAccount(admin, { email, password, name, schoolId: school.id, phone, address, mustChangePassword: true }, async (id) => {
      const r = await admin.from('user_roles').insert({ user_id: id, school_id: school.id, role: 'SCHOOL_ADMIN' });
      if (r.error) throw new HttpError(400, `Não foi possível atribuir o papel: ${r.error.message}`);
    });
    return json({ user_id: userId, school_id: school.id, email, temporary_password: password }, 201);
  } catch (e) {
    // All or nothing: no school without its administrator.
    await admin.from('schools').delete().eq('id', school.id);
    throw e;
  }
});
