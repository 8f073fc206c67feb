// The own profile's writes. The profile is cached by the session (src/platform/session.ts,
// ['profiles', 'detail', userId]): a save replaces it, a new photo marks it stale.
// Minha assinatura (issue 24):
//   ['subscriptions', 'mine', userId]   the student's subscriptions with their latest invoice
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import { sessionKeys } from '@/platform/session';
import { useCancelSubscription } from '@/concepts/subscriptions';
import type { ProfileValues } from '../schemas';
import { fetchMySubscriptions, updateProfile, uploadAvatar, type MySubscription } from './queries';

export type { MySubscription };

export const subscriptionKeys = {
  all: rootKeys.subscriptions,
  mine: (userId: string) => [...rootKeys.subscriptions, 'mine', userId] as const,
};

/** `pollWhile`: read again every 3 s while it holds (back from Asaas, until the first payment is confirmed). */
export function useMySubscriptions(userId: string, { pollWhile }: { pollWhile?: (rows: MySubscription[] | undefined) => boolean } = {}) {
  return useQuery({
    queryKey: subscriptionKeys.mine(userId),
    queryFn: () => fetchMySubscriptions(supabase, userId),
    refetchInterval: pollWhile ? (query) => (pollWhile(query.state.data) ? 3000 : false) : false,
  });
}

/** The student cancels: their list, the home's offers and a plan's checkout refresh. */
export function useCancelMySubscription() {
  return useCancelSubscription([subscriptionKeys.all, rootKeys.plans, rootKeys.checkout]);
}

export function useUpdateProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ProfileValues) => updateProfile(supabase, userId, values),
    meta: { errorTitle: 'Erro ao atualizar perfil' },
    onSuccess: (profile) => {
      queryClient.setQueryData(sessionKeys.profile(userId), profile);
      toast.success('Perfil atualizado com sucesso!');
    },
  });
}

export function useUploadAvatar(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, previousUrl }: { file: File; previousUrl: string | null }) => uploadAvatar(supabase, userId, file, previousUrl),
    meta: { errorTitle: 'Erro ao fazer upload da foto' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionKeys.profile(userId) });
      toast.success('Foto de perfil atualizada!');
    },
  });
}
