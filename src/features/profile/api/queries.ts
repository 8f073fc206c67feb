// Own profile: form save and avatar upload (bucket avatars, {userId}/avatar.{ext}).
import type { DbClient } from '@/lib/db';
import type { ProfileRow } from '@/lib/session';
import { avatarPath } from '@/lib/upload';
import type { ProfileValues } from '../schemas';

export async function updateProfile(client: DbClient, userId: string, values: ProfileValues): Promise<ProfileRow> {
  const { data, error } = await client
    .from('profiles')
    .update({ name: values.name, phone: values.phone || null, cpf: values.cpf || null, address: values.address || null })
    .eq('id', userId)
    .select('*')
    .single();
  if (error) throw error;
  return data;
}

/** The object path inside bucket `avatars` of a public avatar URL, when it is one of the user's files. */
export function avatarObjectPath(url: string | null | undefined, userId: string): string | null {
  if (!url) return null;
  const match = /\/storage\/v1\/object\/public\/avatars\/([^?#]+)/.exec(url);
  if (!match) return null;
  const path = decodeURIComponent(match[1]!);
  return path.startsWith(`${userId}/`) ? path : null;
}

/** Uploads the photo, drops the previous file if it had another name, and saves the new URL on the profile. */
export async function uploadAvatar(client: DbClient, userId: string, file: File, previousUrl: string | null): Promise<string> {
  const path = avatarPath(userId, file);
  const bucket = client.storage.from('avatars');
  const { error } = await bucket.upload(path, file, { upsert: true, contentType: file.type, cacheControl: '3600' });
  if (error) throw error;
  const oldPath = avatarObjectPath(previousUrl, userId);
  if (oldPath && oldPath !== path) await bucket.remove([oldPath]); // a failed cleanup is not the user's problem
  // The path is stable, so a version parameter makes browsers fetch the new photo.
  const url = `${bucket.getPublicUrl(path).data.publicUrl}?v=${Date.now()}`;
  const { error: updateError } = await client.from('profiles').update({ avatar_url: url }).eq('id', userId);
  if (updateError) throw updateError;
  return url;
}
