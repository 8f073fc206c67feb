// The school's own appearance (SPEC §2 "Member area" and "Login settings"): one update per save, and
// the images it shows, uploaded under the school's folder of the public bucket.
import type { VideoSettings } from '@/concepts/video-settings';
import type { DbClient } from '@/platform/db';
import type { SchoolRow } from '@/platform/session';
import { uploadPublicImage } from '@/platform/storage';
import { fileExtension } from '@/platform/upload';
import type { TablesUpdate } from '@/types/database';

export type SchoolUpdate = Pick<
  TablesUpdate<'schools'>,
  | 'name'
  | 'description'
  | 'slug'
  | 'primary_color'
  | 'secondary_color'
  | 'banner_url'
  | 'banner_position'
  | 'member_area_name'
  | 'logo_url'
  | 'login_banner_url'
  | 'login_banner_position'
  | 'support_whatsapp'
  | 'subscription_grace_days'
  | 'video_watermark'
>;

export async function updateSchool(client: DbClient, schoolId: string, patch: SchoolUpdate): Promise<SchoolRow> {
  const { data, error } = await client.from('schools').update(patch).eq('id', schoolId).select('*').single();
  if (error) throw error;
  return data;
}

/** Settings → Vídeos das aulas: the school's row of school_video_settings, made by the first save (upsert on school_id). */
export async function saveVideoSettings(client: DbClient, schoolId: string, settings: VideoSettings): Promise<VideoSettings> {
  const { data, error } = await client
    .from('school_video_settings')
    .upsert({ school_id: schoolId, ...settings }, { onConflict: 'school_id' })
    .select('max_screens, sharing_max_devices, sharing_max_networks')
    .single();
  if (error) throw error;
  return data;
}

/** SPEC §7 path for school images: '{schoolId}/{schoolId}-{timestamp}.{ext}' (a new name per upload, so caches never serve the old one). */
export function schoolImageName(schoolId: string, file: File, now = Date.now()): string {
  const ext = fileExtension(file.name) || file.type.split('/')[1] || 'jpg';
  return `${schoolId}-${now}.${ext.replace(/[^a-z0-9]/g, '')}`;
}

/** Uploads a banner or logo of the school; resolves to its public URL. */
export function uploadSchoolImage(schoolId: string, file: File): Promise<string> {
  return uploadPublicImage('school-banners', schoolId, file, schoolImageName(schoolId, file));
}
