// A school's playback settings (issue 39, docs/video.md "School settings"): "Telas simultâneas" and the
// limits above which "Compartilhamento suspeito" lists an account. Shared by features/school-settings
// (Configurações edits them) and features/shared-logins (the report says which limits it applies).
// Key: ['video-settings', schoolId]. No row yet: the database's defaults, which the report applies too.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DbClient } from '@/platform/db';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import type { Tables } from '@/types/database';

export type VideoSettings = Pick<Tables<'school_video_settings'>, 'max_screens' | 'sharing_max_devices' | 'sharing_max_networks'>;

/** The column defaults of public.school_video_settings (migration 20261128002000). */
export const VIDEO_SETTINGS_DEFAULTS: VideoSettings = { max_screens: 2, sharing_max_devices: 4, sharing_max_networks: 5 };

export async function fetchVideoSettings(client: DbClient, schoolId: string): Promise<VideoSettings> {
  const { data, error } = await client
    .from('school_video_settings')
    .select('max_screens, sharing_max_devices, sharing_max_networks')
    .eq('school_id', schoolId)
    .maybeSingle();
  if (error) throw error;
  return data ?? VIDEO_SETTINGS_DEFAULTS;
}

export const videoSettingsKey = (schoolId: string) => [...rootKeys.videoSettings, schoolId] as const;

export const videoSettingsQuery = (schoolId: string) =>
  queryOptions({ queryKey: videoSettingsKey(schoolId), queryFn: () => fetchVideoSettings(supabase, schoolId) });

export function useVideoSettings(schoolId: string) {
  return useQuery(videoSettingsQuery(schoolId));
}
