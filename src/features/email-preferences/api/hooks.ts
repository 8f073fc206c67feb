// TanStack Query over the e-mail preferences (queries.ts). Keys:
//   ['email-settings', 'school', schoolId]           Settings → E-mails
//   ['email-settings', 'preview', schoolId, kind]     SMTP status and one message's preview
//   ['email-settings', 'mine', userId]                the student's stopped kinds (profile)
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { supabase } from '@/lib/supabase';
import { rootKeys } from '@/lib/query-keys';
import {
  fetchEmailPreview,
  fetchMyUnsubscribes,
  fetchSchoolEmailSettings,
  saveSchoolEmailSettings,
  setKindWanted,
  unsubscribeByToken,
  type OptionalEmailKind,
  type SchoolEmailSettings,
} from './queries';

export const emailKeys = {
  school: (schoolId: string) => [...rootKeys.emailSettings, 'school', schoolId] as const,
  preview: (schoolId: string, kind: string) => [...rootKeys.emailSettings, 'preview', schoolId, kind] as const,
  mine: (userId: string) => [...rootKeys.emailSettings, 'mine', userId] as const,
};

/** The e-mail's Descadastrar link: one call, whoever is signed in (or nobody). */
export function useUnsubscribeByToken() {
  return useMutation({ mutationFn: (token: string) => unsubscribeByToken(token) });
}

export const schoolEmailSettingsQuery = (schoolId: string) =>
  queryOptions({ queryKey: emailKeys.school(schoolId), queryFn: () => fetchSchoolEmailSettings(supabase, schoolId) });

export function useSchoolEmailSettings(schoolId: string) {
  return useQuery(schoolEmailSettingsQuery(schoolId));
}

/** Whether SMTP is configured ('' kind) or one message's preview. */
export function useEmailPreview(schoolId: string, kind: string, enabled = true) {
  return useQuery({ queryKey: emailKeys.preview(schoolId, kind), queryFn: () => fetchEmailPreview(schoolId, kind || undefined), enabled, staleTime: 60_000 });
}

export function useSaveSchoolEmailSettings(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: SchoolEmailSettings) => saveSchoolEmailSettings(supabase, schoolId, settings),
    meta: { errorTitle: 'Erro ao salvar' },
    onSuccess: () => {
      toast.success('E-mails atualizados!');
      return queryClient.invalidateQueries({ queryKey: emailKeys.school(schoolId) });
    },
  });
}

export function useMyUnsubscribes(userId: string) {
  return useQuery({ queryKey: emailKeys.mine(userId), queryFn: () => fetchMyUnsubscribes(supabase, userId) });
}

export function useSetKindWanted(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: OptionalEmailKind; wanted: boolean }) => setKindWanted(supabase, { userId, ...input }),
    meta: { errorTitle: 'Erro ao salvar' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKeys.mine(userId) }),
  });
}
