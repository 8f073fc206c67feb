// A school as its e-mails show it: the branding of the layout (layout.ts), the slug of its links, and
// Settings → E-mails' sender name and reply-to. send-emails loads the schools of a batch; email-preview,
// the one school whose message it shows.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { SchoolBrand } from './layout.ts';

export interface EmailSchool extends SchoolBrand {
  slug: string;
  /** Settings → E-mails: the From name (default: the school's) and the Reply-To. */
  senderName: string | null;
  replyTo: string | null;
}

/** The schools of `ids` by id (a school that does not exist is not in the map). */
export async function loadEmailSchools(admin: SupabaseClient, ids: string[]): Promise<Map<string, EmailSchool>> {
  const { data, error } = await admin
    .from('schools')
    .select('id, slug, name, logo_url, primary_color, support_whatsapp, settings:school_email_settings(sender_name, reply_to)')
    .in('id', ids);
  if (error) throw new Error(`schools: ${error.message}`);
  return new Map(
    (data ?? []).map((s) => [
      s.id as string,
      {
        slug: s.slug as string,
        // The school's own name in the header and signature (and the sender's, unless Settings names
        // another), as the students know it; not the member area's title (issue 46).
        name: s.name as string,
        logoUrl: s.logo_url as string | null,
        primaryColor: s.primary_color as string | null,
        supportWhatsapp: s.support_whatsapp as string | null,
        senderName: (one(s.settings)?.sender_name as string | null | undefined) ?? null,
        replyTo: (one(s.settings)?.reply_to as string | null | undefined) ?? null,
      },
    ]),
  );
}

/** A to-one embed arrives as an object (or, from older PostgREST, a one-element array). */
function one<T>(v: T | T[] | null | undefined): T | null {
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}
