// The "Acesso liberado" link (issue 22): 7 days, once (supabase/migrations/20261126000200_access_links.sql).
// The e-mail carries a random token in the URL's fragment (/acesso#token=…), which browsers never send
// to a server and link scanners that do not run the page cannot spend; the database keeps its SHA-256.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

export async function tokenHash(token: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
}

/** A new link for the account, recorded; the URL to put in the e-mail. */
export async function createAccessLink(admin: SupabaseClient, site: string, userId: string, schoolId: string): Promise<string> {
  const token = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const { error } = await admin.rpc('create_access_link', { p_user_id: userId, p_school_id: schoolId, p_token_hash: await tokenHash(token) });
  if (error) throw new Error(`create_access_link: ${error.message}`);
  return `${site}/acesso#token=${token}`;
}

/** The titles of the account's active, unexpired courses at the school, for the access e-mail. */
export async function activeCourseTitles(admin: SupabaseClient, userId: string, schoolId: string): Promise<string[]> {
  const { data, error } = await admin
    .from('enrollments')
    .select('course:courses!inner(title, school_id)')
    .eq('user_id', userId)
    .eq('status', 'ACTIVE')
    .or(`expires_at.is.null,expires_at.gt.${new Date().toISOString()}`)
    .eq('course.school_id', schoolId);
  if (error) throw new Error(`enrollments: ${error.message}`);
  return ((data ?? []) as unknown as { course: { title: string } }[]).map((e) => e.course.title).sort((a, b) => a.localeCompare(b, 'pt-BR'));
}
