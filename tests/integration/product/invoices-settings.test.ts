// Issue 42, Configurações → "Notas fiscais" in real Deno against the fake Asaas: staff of the school save the
// setting over REST, except the switch; invoice-settings lists what the school's Asaas account lacks (pt-BR,
// with where to fix it), searches the municipality's services, and turns Notas fiscais on only when nothing
// is missing. Attacks: the switch written by hand, another school's staff, a student.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, SCHOOL, USER } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';
import { COMPLETE_FISCAL_INFO } from '../../../scripts/fake-asaas/invoices.ts';

const [, RIVAL] = DEMO_ASAAS_ACCOUNTS;
const backend = useBackend({ fakeAsaas: { eventDelayMs: 10 } });
const fake = backend.asaas;
const service = backend.service();
const clients = {
  admin: backend.signedIn('adminDemo'),
  rival: backend.signedIn('adminRival'),
  aluna: backend.signedIn('aluna'),
};

async function settingsCall(client: SupabaseClient, body: Record<string, unknown>) {
  const token = (await client.auth.getSession()).data.session?.access_token;
  const res = await fetch(`${backend.url}/functions/v1/invoice-settings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const rivalSettings = async () => (await service.from('school_invoice_settings').select('*').eq('school_id', SCHOOL.rival).maybeSingle()).data;

describe('Notas fiscais settings', () => {
  it('the fiscal check lists what is missing in pt-BR with where to fix it, and the switch stays off until nothing is', async () => {
    // The fake's control, as a journey or a person at npm start uses it: no fiscal registration at all.
    const control = await fetch(`${fake.url}/nfse/controle`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiKey: RIVAL.apiKey, fiscalInfo: null }) });
    expect(control.status).toBe(200);
    const none = await settingsCall(clients.rival, { action: 'check' });
    expect(none.status).toBe(200);
    expect(none.body.missing).toEqual([
      { field: 'fiscalInfo', message: 'As informações fiscais da empresa não foram cadastradas no Asaas.', where: 'No Asaas: Minha conta → Informações fiscais' },
      { field: 'municipalService', message: 'O serviço municipal das notas.', where: 'Aqui: Configurações → Notas fiscais → Serviço municipal' },
    ]);

    fake.setFiscalInfo(RIVAL.apiKey, { ...COMPLETE_FISCAL_INFO, municipalInscription: '', certificateSent: false });
    const partial = await settingsCall(clients.rival, { action: 'check' });
    expect((partial.body.missing as { field: string }[]).map((m) => m.field)).toEqual(['municipalInscription', 'certificate', 'municipalService']);

    // On is refused while anything is missing, and nothing is written.
    const refused = await settingsCall(clients.rival, { action: 'enable', enabled: true });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('Faltam informações fiscais para emitir notas.');
    expect(refused.body.missing).toEqual(partial.body.missing);
    expect((await rivalSettings())?.enabled ?? false).toBe(false);

    // The school picks its service (the municipality's list, searched) and saves its setting over REST.
    const search = await settingsCall(clients.rival, { action: 'services', q: 'cursos on-line' });
    expect(search.status).toBe(200);
    const service08 = (search.body.services as { id: string; description: string; iss_tax: number }[])[0]!;
    expect(service08).toEqual({ id: '07285', description: '08.02 - Cursos livres, cursos on-line e treinamentos à distância', iss_tax: 2 });
    const saved = await clients.rival.from('school_invoice_settings').upsert(
      { school_id: SCHOOL.rival, issue_on: 'payment', municipal_service_id: service08.id, municipal_service_name: 'Cursos livres', iss_rate: 2, retain_iss: true },
      { onConflict: 'school_id' },
    ).select('enabled, issue_on, iss_rate');
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual([{ enabled: false, issue_on: 'payment', iss_rate: 2 }]);
    expect((await settingsCall(clients.rival, { action: 'enable', enabled: true })).status).toBe(409);

    // Fixed at Asaas: now it turns on, and off again.
    fake.setFiscalInfo(RIVAL.apiKey, { ...COMPLETE_FISCAL_INFO });
    expect(await settingsCall(clients.rival, { action: 'check' })).toEqual({ status: 200, body: { missing: [], supports_cancellation: true } });
    expect(await settingsCall(clients.rival, { action: 'enable', enabled: true })).toEqual({ status: 200, body: { enabled: true, missing: [] } });
    expect(await rivalSettings()).toMatchObject({ enabled: true, issue_on: 'payment', municipal_service_id: '07285' });
    // "On payment": a confirmed payment's invoice is due at once.
    const { data: payment, error: payError } = await service.from('payments').insert({
      school_id: SCHOOL.rival, user_id: USER.alunoRival, course_id: COURSE.rival, course_title: 'Curso Rival', environment: 'sandbox',
      billing_type: 'PIX', value: 50, provider_payment_id: `pay_rival_${Date.now()}`,
    }).select('id').single();
    expect(payError).toBeNull();
    await service.from('payments').update({ status: 'RECEIVED', paid_at: new Date().toISOString() }).eq('id', payment!.id);
    const invoice = (await service.from('invoices').select('status, issue_at, value').eq('payment_id', payment!.id).single()).data!;
    expect(invoice).toMatchObject({ status: 'pending', value: 50 });
    expect(new Date(invoice.issue_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    // With it on, the service cannot be cleared.
    const cleared = await clients.rival.from('school_invoice_settings').update({ municipal_service_id: null }).eq('school_id', SCHOOL.rival).select();
    expect(cleared.error?.message).toMatch(/school_invoice_settings_service_when_enabled/);
    expect(await settingsCall(clients.rival, { action: 'enable', enabled: false })).toEqual({ status: 200, body: { enabled: false, missing: [] } });
    expect((await rivalSettings())!.enabled).toBe(false);
  });

  it('the switch cannot be written over REST, by staff of the school or anyone else', async () => {
    fake.setFiscalInfo(RIVAL.apiKey, null);
    const direct = await clients.rival.from('school_invoice_settings').update({ enabled: true }).eq('school_id', SCHOOL.rival).select();
    expect(direct.error).not.toBeNull();
    const insert = await clients.rival.from('school_invoice_settings').upsert({ school_id: SCHOOL.rival, enabled: true }, { onConflict: 'school_id' }).select();
    expect(insert.error).not.toBeNull();
    expect(await clients.rival.rpc('set_invoices_enabled', { p_school_id: SCHOOL.rival, p_enabled: true })).toMatchObject({ error: { code: '42501' } });
    expect((await rivalSettings())!.enabled).toBe(false);
  });

  it("another school's staff and a student neither read nor change this school's setting, nor ask its Asaas", async () => {
    const before = (await service.from('school_invoice_settings').select('*').eq('school_id', SCHOOL.demo).single()).data!;
    expect((await clients.rival.from('school_invoice_settings').select('school_id').eq('school_id', SCHOOL.demo)).data).toEqual([]);
    expect((await clients.aluna.from('school_invoice_settings').select('school_id').eq('school_id', SCHOOL.demo)).data).toEqual([]);
    const edit = await clients.rival.from('school_invoice_settings').update({ iss_rate: 99 }).eq('school_id', SCHOOL.demo).select();
    expect(edit.data ?? []).toEqual([]);
    for (const body of [{ action: 'check' }, { action: 'enable', enabled: false }, { action: 'services', q: 'curso' }]) {
      expect((await settingsCall(clients.rival, { ...body, school_id: SCHOOL.demo })).status, JSON.stringify(body)).toBe(403);
      expect((await settingsCall(clients.aluna, { ...body, school_id: SCHOOL.demo })).status, JSON.stringify(body)).toBe(403);
    }
    expect((await service.from('school_invoice_settings').select('*').eq('school_id', SCHOOL.demo).single()).data).toEqual(before);
    // Control: the school's own staff read it, and the demo school is on (seed).
    expect((await clients.admin.from('school_invoice_settings').select('enabled, guarantee_days').eq('school_id', SCHOOL.demo)).data).toEqual([{ enabled: true, guarantee_days: 7 }]);
  });
});
