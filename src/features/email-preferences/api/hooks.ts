// TanStack Query over the e-mail preferences (queries.ts). Keys:
//   ['email-settings', 'school', schoolId]           Settings → E-mails
//   ['email-settings', 'preview', schoolId, kind]     SMTP status and one message's preview
//   ['email-settings', 'mine', userId]                the student's stopped kinds (profile)
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import {
  fetchEmailPreview,
  fetchMyUnsubscribes,
  fetchSchoolEmailSettings,
  saveSchoolEmailSettings,
  resubscribeByToken,
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

/** The e-mail's Descadastrar page, once confirmed: one call, whoever is signed in (or nobody). */
export function useUnsubscribeByToken() {
  return useMutation({ mutationFn: (token: string) => unsubscribeByToken(token) });
}

/** Its "Desfazer". */
export function useResubscribeByToken() {
  return useMutation({ mutationFn: (token: string) => resubscribeByToken(token) });
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

/**
 * A switch of Settings → E-mails, saved at once. The kinds are one list in one row, so one school's
 * switches save one after another (one scope), each from the list the previous save left in the cache.
 */
export function useSetSchoolEmailKind(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: `school-email-kinds:${schoolId}` },
    mutationFn: async ({ kind, on }: { kind: OptionalEmailKind; on: boolean }) => {
      const { disabled_kinds } = await queryClient.ensureQueryData(schoolEmailSettingsQuery(schoolId));
      const disabled = on ? disabled_kinds.filter((k) => k !== kind) : [...disabled_kinds.filter((k) => k !== kind), kind];
      await saveSchoolEmailSettings(supabase, schoolId, { disabled_kinds: disabled });
      return disabled;
    },
    meta: { errorTitle: 'Erro ao salvar' },
    onSuccess: (disabled) => queryClient.setQueryData<SchoolEmailSettings>(emailKeys.school(schoolId), (old) => old && { ...old, disabled_kinds: disabled }),
  });
}

/** Settings → E-mails: the sender's name and the reply-to, saved by their form's "Salvar". */
export function useSaveSchoolEmailSender(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sender: Pick<SchoolEmailSettings, 'sender_name' | 'reply_to'>) => saveSchoolEmailSettings(supabase, schoolId, sender),
    meta: { errorTitle: 'Erro ao salvar' },
    onSuccess: (_d, sender) => {
      queryClient.setQueryData<SchoolEmailSettings>(emailKeys.school(schoolId), (old) => old && { ...old, ...sender });
      toast.success('Remetente atualizado!');
    },
  });
}

export function useMyUnsubscribes(userId: string) {
  return useQuery({ queryKey: emailKeys.mine(userId), queryFn: () => fetchMyUnsubscribes(supabase, userId) });
}

/** A switch of Profile → Preferências de e-mail, saved at once (one row per stopped kind). */
export function useSetKindWanted(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: OptionalEmailKind; wanted: boolean }) => setKindWanted(supabase, { userId, ...input }),
    meta: { errorTitle: 'Erro ao salvar' },
    onSuccess: (_d, { kind, wanted }) =>
      queryClient.setQueryData<OptionalEmailKind[]>(emailKeys.mine(userId), (stopped) => {
        const others = (stopped ?? []).filter((k) => k !== kind);
        return wanted ? others : [...others, kind];
      }),
  });
}
