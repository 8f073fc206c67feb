// Uploads to the public image buckets (school-banners, course-thumbnails): a storage-safe, unique
// object name under the school's folder, and the public URL (or the object path) back.
import { supabase } from './supabase';
import { uniqueObjectName } from './upload';

export type PublicImageBucket = 'school-banners' | 'course-thumbnails';

/** Stores an image under the school's folder; returns its object path ({school_id}/{name}). */
export async function storePublicImage(bucket: PublicImageBucket, schoolId: string, file: Blob, name: string): Promise<string> {
  const path = `${schoolId}/${name}`;
  const { error } = await supabase.storage
    .from(bucket)
    .upload(path, file, { contentType: file.type || undefined, cacheControl: '31536000', upsert: true });
  if (error) throw error;
  return path;
}

export async function uploadPublicImage(bucket: PublicImageBucket, schoolId: string, file: File, name = uniqueObjectName(file.name)): Promise<string> {
  const path = await storePublicImage(bucket, schoolId, file, name);
  return supabase.storage.from(bucket).getPublicUrl(path).data.publicUrl;
}
