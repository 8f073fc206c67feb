// Issue 43's demo (supabase/seed.sql, what `npm start` shows): Marketing Digital has the program on with one approved
// affiliate (aluno, code aluno001) and a co-producer; a visitor's click counts, the affiliate's panel shows the course,
// and a purchase by PIX with the code carries both shares to the fake Asaas.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE } from '../rls/seed.ts';

const backend = useBackend({ fakeAsaas: { eventDelayMs: 10 }, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const fake = backend.asaas;
const aluno = backend.signedIn('aluno');
const aluna = backend.signedIn('aluna');

async function callAs(client: SupabaseClient, fn: string, body: unknown) {
  const { data } = await client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/${fn}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${data.session!.access_token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the demo program', () => {
  it('the link counts a click, the panel shows Marketing, and a purchase with the code carries the affiliate\'s and the co-producer\'s split', async () => {
    expect((await backend.anon().rpc('record_affiliate_click', { p_course_id: COURSE.marketing, p_code: 'aluno001' })).data).toBe(true);
    const panel = await aluno.rpc('affiliate_panel', {});
    expect(panel.data).toMatchObject({ affiliate: { code: 'aluno001', status: 'approved' }, school_slug: 'escola-demo', courses: [{ slug: 'marketing-digital', clicks: 1 }] });

    expect((await aluna.rpc('attach_affiliate_attribution', { p_code: 'aluno001', p_clicked_at: new Date().toISOString() })).data).toBe(true);
    const res = await callAs(aluna, 'create-asaas-charge', { course_id: COURSE.marketing, billing_type: 'PIX', customer: { name: 'Aluna Teste', email: 'aluna@escola-demo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' } });
    expect(res.status).toBe(200);
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments')).at(-1)!.body as { value: number; split: unknown };
    expect(sent.split).toEqual([
      { walletId: '0b763922-aa88-4cbe-a567-e3fe8511fa06', fixedValue: Math.floor((Math.round(sent.value * 100) * 30) / 100) / 100 },
      { walletId: '48548710-9baa-4ec1-a11f-9010193527c6', fixedValue: Math.floor((Math.round(sent.value * 100) * 10) / 100) / 100 },
    ]);
  });
});
