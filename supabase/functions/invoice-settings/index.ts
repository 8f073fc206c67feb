// invoice-settings (issue 42, Configurações → "Notas fiscais"): staff of the school (or the super admin) ask
// Asaas about the school's fiscal information and turn Notas fiscais on or off. The switch is written only
// here: it turns on only when the fiscal check finds nothing missing (the table grants nobody else the column).
// Body { action, school_id? (the caller's school when absent) } and:
//   'check'                       → { missing: [{field, message, where}], supports_cancellation }
//   'services', q? (≤ 100), offset? → { services: [{id, description, iss_tax}], has_more }  (the municipality's list)
//   'enable', enabled: boolean    → { enabled, missing }  (409 "Faltam informações fiscais" with the list when on is refused)
import { schoolAsaas, asaasFailure } from '../_shared/checkout.ts';
import { HttpError, json, readJsonBody, serve } from '../_shared/http.ts';
import { missingFiscalItems, readFiscalInfo } from '../_shared/invoices.ts';
import { requireStaff, serviceClient } from '../_shared/supabase.ts';
import { optionalString, optionalUuid } from '../_shared/validate.ts';

serve(async (req) => {
  const admin = serviceClient();
  const caller = await requireStaff(req, admin);
  const body = await readJsonBody(req);
  const schoolId = optionalUuid(body, 'school_id', 'Escola') ?? caller.schoolId;
  if (!schoolId || !caller.isStaffOf(schoolId)) throw new HttpError(403, 'Acesso negado');
  const action = body.action;
  const { asaas } = await schoolAsaas(admin, schoolId);

  if (action === 'services') {
    const q = optionalString(body, 'q', 'Busca', 100) ?? '';
    const offset = Number.isInteger(body.offset) && (body.offset as number) >= 0 && (body.offset as number) <= 10_000 ? (body.offset as number) : 0;
    const list = await asaas.municipalServices(q, offset).catch((e) => asaasFailure(e, 'the municipal services'));
    return json({ services: (list.data ?? []).map((s) => ({ id: s.id, description: s.description, iss_tax: s.issTax })), has_more: !!list.hasMore });
  }

  const { data: settings, error } = await admin
    .from('school_invoice_settings')
    .select('enabled, municipal_service_id, municipal_service_code')
    .eq('school_id', schoolId)
    .maybeSingle();
  if (error) throw new Error(`school_invoice_settings: ${error.message}`);

  if (action === 'check' || (action === 'enable' && body.enabled === true)) {
    const { info, options } = await readFiscalInfo(asaas).catch((e) => asaasFailure(e, 'the fiscal info'));
    const missing = missingFiscalItems(info, options, settings);
    if (action === 'check') return json({ missing, supports_cancellation: options?.supportsCancellation ?? null });
    if (missing.length) throw new HttpError(409, 'Faltam informações fiscais para emitir notas.', { missing });
    const { error: setError } = await admin.rpc('set_invoices_enabled', { p_school_id: schoolId, p_enabled: true });
    if (setError) throw new HttpError(setError.code === '22023' ? 409 : 500, setError.code === '22023' ? setError.message : 'Não foi possível salvar.');
    return json({ enabled: true, missing });
  }
  if (action === 'enable' && body.enabled === false) {
    const { error: setError } = await admin.rpc('set_invoices_enabled', { p_school_id: schoolId, p_enabled: false });
    if (setError) throw new Error(`set_invoices_enabled: ${setError.message}`);
    return json({ enabled: false, missing: [] });
  }
  throw new HttpError(400, 'Ação inválida', { field: 'action' });
});
