// TanStack Query over the e-mail preferences (queries.ts).
import { useMutation } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { unsubscribeByToken } from './queries';

/** The e-mail's Descadastrar link: one call, whoever is signed in (or nobody). */
export function useUnsubscribeByToken() {
  return useMutation({ mutationFn: (token: string) => unsubscribeByToken(supabase, token) });
}
