// Issue 24 "Done when", with the fake Asaas: a monthly plan paid by card gives access to its courses;
// the next invoice's card is declined and, past the school's grace days (the daily check, run here with
// its clock), access pauses; paying the invoice on Asaas's page restores it.
import { expect, test } from './helpers';
import { COURSE, SCHOOL_ID, api, freshStudent, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

const ASAAS_PORT = Number(process.env.E2E_ASAAS_PORT || 54339);
const DAY = 24 * 3600_000;

test.describe.configure({ timeout: 90_000 });

async function service(path: string, init: RequestInit = {}) {
  return api(path, { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' }, ...init });
}
async function marketingStatus(userId: string): Promise<string | null> {
  const rows = await service(
    `/rest/v1/enrollments?select=status&user_id=eq.${userId}&course_id=eq.${COURSE.marketing}`,
  );
  return (rows[0]?.status as string | undefined) ?? null;
}
async function subscriptionOf(userId: string) {
  const rows = await service(
    `/rest/v1/subscriptions?select=id,status,paid_until,provider_subscription_id&user_id=eq.${userId}`,
  );
  return rows[0] as
    { id: string; status: string; paid_until: string | null; provider_subscription_id: string | null } | undefined;
}

test('a monthly plan paid by card opens its course; an unpaid invoice past the grace days pauses it; paying restores it', async ({
  page,
}) => {
  const tag = Math.random().toString(36).slice(2, 7);
  const name = `Plano Marketing ${tag}`;
  const [plan] = await service('/rest/v1/plans', {
    method: 'POST',
    body: JSON.stringify({
      school_id: SCHOOL_ID,
      slug: `plano-mkt-${tag}`,
      name,
      cycle: 'MONTHLY',
      price: 49.9,
      billing_types: ['CREDIT_CARD', 'PIX'],
    }),
  });
  await service('/rest/v1/plan_courses', {
    method: 'POST',
    body: JSON.stringify({ plan_id: plan.id, course_id: COURSE.marketing }),
  });
  const student = await freshStudent(`Assinante ${tag}`, { enrollIn: [] });

  // The home offers the plan; its checkout charges the card.
  await signInAs(page, student.email);
  await page.goto('/');
  await page.getByRole('link', { name: `Assinar ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/plano/plano-mkt-${tag}$`));
  await expect(page.getByRole('heading', { name: `Assinar ${name}` })).toBeVisible();
  await page.getByLabel('CPF').fill('390.533.447-05');
  await page.getByLabel('Telefone').fill('(21) 99876-5432');
  await page.getByRole('button', { name: 'Cartão' }).click();
  await page.getByLabel('Nome impresso no cartão').fill('ASSINANTE TESTE');
  await page.getByLabel('Número do cartão').fill('5162306219378829');
  await page.getByLabel('Mês').fill('05');
  await page.getByLabel('Ano').fill('2031');
  await page.getByLabel('CVV').fill('318');
  await page.getByLabel('CEP do titular').fill('01310100');
  await page.getByLabel('Número do endereço').fill('1000');
  await page.getByRole('button', { name: 'Assinar por R$ 49,90/mês' }).click();
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/`));
  await expect.poll(() => marketingStatus(student.id)).toBe('ACTIVE');
  const active = (await subscriptionOf(student.id))!;
  expect(active.status).toBe('ACTIVE');

  await page.goto('/profile');
  await expect(page.getByRole('list', { name: 'Assinaturas' }).getByText(name)).toBeVisible();
  await expect(page.getByText('Ativa', { exact: true })).toBeVisible();

  // The next cycle: the card is declined, the invoice stays unpaid.
  const asaasId = active.provider_subscription_id!;
  const next = await fetch(`http://localhost:${ASAAS_PORT}/s/${asaasId}/next-cycle?cartao=recusado`, {
    method: 'POST',
    redirect: 'manual',
  });
  expect(next.status).toBe(303);
  // Within the 5 grace days nothing changes; after them the daily check pauses access.
  const paidUntil = Date.parse(active.paid_until!);
  await service('/rest/v1/rpc/check_subscription_access', {
    method: 'POST',
    body: JSON.stringify({ p_now: new Date(paidUntil + 4 * DAY).toISOString() }),
  });
  expect(await marketingStatus(student.id)).toBe('ACTIVE');
  await service('/rest/v1/rpc/check_subscription_access', {
    method: 'POST',
    body: JSON.stringify({ p_now: new Date(paidUntil + 6 * DAY).toISOString() }),
  });
  expect(await marketingStatus(student.id)).toBe('PAUSED');
  await page.reload();
  await expect(page.getByText('Em atraso', { exact: true })).toBeVisible();
  await page.goto(`/course/${COURSE.marketing}/lesson/e0000000-0000-4000-8000-000000000008`);
  await expect(page.getByText('Acesso Restrito')).toBeVisible();

  // The student pays the overdue invoice on Asaas's subscription page: access comes back.
  await page.goto(`http://localhost:${ASAAS_PORT}/s/${asaasId}`);
  await page.getByRole('button', { name: 'Simular pagamento' }).first().click();
  await expect(page).toHaveURL(/\/profile\?assinatura=retorno$/);
  await expect.poll(() => marketingStatus(student.id)).toBe('ACTIVE');
  await expect(page.getByText('Ativa', { exact: true })).toBeVisible();
  await page.goto(`/course/${COURSE.marketing}/lesson/e0000000-0000-4000-8000-000000000008`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Acesso Restrito')).toHaveCount(0);
});
