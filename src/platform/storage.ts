// Uploads to the public image buckets (school-banners, course-thumbnails): a storage-safe, unique
// object name under the school's folder, and the public URL back.
import { supabase } from './supabase';
import { uniqueObjectName } from './upload';

export type PublicImageBucket = 'school-banners' | 'course-thumbnails';

export async function uploadPublicImage(bucket: PublicImageBucket, schoolId: string, file: File, name = uniqueObjectName(file.name)): Promise<string> {
  const path = `${schoolId}/${name}`;
  const storage = supabase.storage.from(bucket);
  const { error } = await storage.upload(path, file, { contentType: file.type || undefined, cacheControl: '31536000', upsert: true });
  if (error) throw error;
  return storage.getPublicUrl(path).data.publicUrl;
}
