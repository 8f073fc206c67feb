// "Carteira Asaas" (issue 43): the wallet id an affiliate is paid to and their own Asaas API key, used once by
// the affiliate-wallet function to prove the wallet is theirs (never stored). The id's format is the
// affiliates_wallet_check constraint's.
import { z } from '@/platform/zod';

export const walletSchema = z.object({
  wallet_id: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      'Informe o ID da carteira (walletId) como o Asaas mostra.',
    ),
  asaas_api_key: z.string().trim().min(1, 'Informe a chave de API da sua conta Asaas.'),
});
export type WalletValues = z.infer<typeof walletSchema>;
