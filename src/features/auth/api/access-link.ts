// The "Acesso liberado" e-mail's link (issue 22): /acesso#token=…, spent by the access-link function.
import { useMutation } from '@tanstack/react-query';
import { readFragmentToken } from '@/utils/fragment-token';
import { invokeFunction, type FunctionCallError } from '@/platform/functions';

/** The link's token (src/utils/fragment-token.ts). */
export const readAccessToken = () => readFragmentToken(/^[A-Za-z0-9_-]{20,100}$/);

/** Why a link no longer works: 'used', 'expired', or 'invalid' (not a link of ours). */
export type DeadLink = 'used' | 'expired' | 'invalid';
export const deadLinkOf = (error: unknown): DeadLink | null => {
  const { status, body } = (error ?? {}) as Partial<FunctionCallError>;
  if (status === 404) return 'invalid';
  if (status === 410) return body?.reason === 'used' ? 'used' : 'expired';
  return null;
};

/** Spends the link and sends the browser to the platform's own page for choosing the password. */
export function useRedeemAccessLink() {
  return useMutation({
    mutationFn: async (token: string) => {
      const { action_link } = await invokeFunction<{ action_link: string }>('access-link', { token });
      window.location.assign(action_link);
    },
  });
}

/** A used or expired link asks for a new access e-mail (once). */
export function useResendAccessLink() {
  return useMutation({ mutationFn: (token: string) => invokeFunction<{ resent: true }>('access-link', { token, resend: true }) });
}
