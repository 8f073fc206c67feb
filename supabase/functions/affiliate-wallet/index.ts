// affiliate-wallet (issue 43, docs/affiliates.md): an affiliate sets the Asaas wallet their commissions are paid to.
// Asaas has no look-up of another account's wallet, so the affiliate proves the wallet is theirs: they give their
// own Asaas API key, which is used for one call (GET /v3/wallets/, Asaas's "Recuperar WalletId": the wallets of
// the account that key opens) and then forgotten, never stored nor logged. The wallet is saved only when Asaas lists
// it, by set_affiliate_wallet (service role only), on the caller's own affiliation: nobody sets someone else's.
// The environment (sandbox or production) is the school's integration's. Answers { wallet_id }.
import { AsaasClient, asaasBaseUrl } from '../_shared/asaas.ts';
import { schoolAsaas } from '../_shared/checkout.ts';
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { requireCaller, serviceClient } from '../_shared/supabase.ts';

const WALLET = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireCaller(req, admin);
  const body = await readJsonBody(req);
  const walletId = typeof body.wallet_id === 'string' ? body.wallet_id.trim().toLowerCase() : '';
  if (!WALLET.test(walletId)) throw new HttpError(400, 'Informe o ID da carteira (walletId) do Asaas.', { field: 'wallet_id' });
  const apiKey = typeof body.asaas_api_key === 'string' ? body.asaas_api_key.trim() : '';
  if (!apiKey || apiKey.length > 300) throw new HttpError(400, 'Informe a chave de API da sua conta Asaas.', { field: 'asaas_api_key' });

  const { data: affiliate } = caller.schoolId
    ? await admin.from('affiliates').select('id').eq('user_id', caller.user.id).eq('school_id', caller.schoolId).maybeSingle()
    : { data: null };
  if (!affiliate || !caller.schoolId) throw new HttpError(404, 'Você ainda não é afiliado.');

  const { environment } = await schoolAsaas(admin, caller.schoolId);
  let listed: string[] = [];
  try {
    const answer = await new AsaasClient(asaasBaseUrl(environment), apiKey).wallets();
    listed = (answer.data ?? []).map((w) => String(w.id).toLowerCase());
  } catch {
    throw new HttpError(400, 'O Asaas não aceitou esta chave de API.', { field: 'asaas_api_key' });
  }
  if (!listed.includes(walletId)) throw new HttpError(400, 'Esta carteira não pertence à conta Asaas desta chave.', { field: 'wallet_id' });

  const { error } = await admin.rpc('set_affiliate_wallet', { p_user_id: caller.user.id, p_wallet_id: walletId });
  if (error) throw new Error(`set_affiliate_wallet: ${error.message}`);
  return json({ wallet_id: walletId });
});
