// Issue 46, the student's screens as a student meets them in Chromium (each also photographed at 1280
// and 360 px wide into the test's output folder):
// - the card forms refuse an impossible card before Asaas; Asaas's refusal stays beside the form until
//   the buyer edits the card; after subscribing the profile says so; Planos → Assinantes lists the buyer
//   once and the refused attempts only under Falhas;
// - the selected payment method's text reads at 4.5:1 or more on its tint;
// - a YouTube player that cannot load says so, with a retry, and leaves no unhandled rejection;
// - a new student is greeted and shown where to start;
// - on a phone the complete button does not cover the lesson's text.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './helpers';
import { COURSE, LESSON, SCHOOL_ID, api, freshStudent, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { contrastRatio, toHex } from '../../src/utils/contrast.ts';

const ASAAS_PORT = Number(process.env.E2E_ASAAS_PORT || 54339);
const DECLINED = 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.';
const service = { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' } };

test.describe.configure({ timeout: 90_000 });

/** The page at 1280 and at 360 px wide, whole, into the test's output folder; back to 1280. */
async function photograph(page: Page, name: string) {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The contrast Chromium paints between `text`'s colour and `surface`'s background over the white card
 * (both through a canvas, so any CSS colour syntax and opacity come out as the pixels shown). */
async function paintedContrast(text: Locator, surface: Locator): Promise<number> {
  const pixel = (el: Element, property: string) => {
    const ctx = Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d')!;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 1, 1);
    ctx.fillStyle = getComputedStyle(el).getPropertyValue(property);
    ctx.fillRect(0, 0, 1, 1);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)) as [number, number, number];
  };
  const fg = await text.evaluate(pixel, 'color');
  const bg = await surface.evaluate(pixel, 'background-color');
  return contrastRatio(toHex(fg), toHex(bg));
}

async function fillCard(page: Page, card: { number: string; year?: string }) {
  await page.getByLabel('Nome impresso no cartão').fill('ASSINANTE TESTE');
  await page.getByLabel('Número do cartão').fill(card.number);
  await page.getByLabel('Mês').fill('05');
  await page.getByLabel('Ano').fill(card.year ?? '2031');
  await page.getByLabel('CVV').fill('318');
  await page.getByLabel('CEP do titular').fill('01310100');
  await page.getByLabel('Número do endereço').fill('1000');
}

test('plan checkout: an impossible card never reaches Asaas, refusals stay beside the form, success is said where the buyer lands, Assinantes lists them once', async ({ page, browser }) => {
  const tag = Math.random().toString(36).slice(2, 7);
  const name = `Plano Estudo ${tag}`;
  const [plan] = await api('/rest/v1/plans', {
    method: 'POST',
    ...service,
    body: JSON.stringify({ school_id: SCHOOL_ID, slug: `plano-estudo-${tag}`, name, cycle: 'MONTHLY', price: 49.9, billing_types: ['CREDIT_CARD', 'PIX'] }),
  });
  await api('/rest/v1/plan_courses', { method: 'POST', ...service, body: JSON.stringify({ plan_id: plan.id, course_id: COURSE.marketing }) });
  const student = await freshStudent(`Bruna Assinante ${tag}`, { enrollIn: [] });
  const subscriptions = async () => (await api(`/rest/v1/subscriptions?select=status&user_id=eq.${student.id}&order=created_at`, service)) as { status: string }[];

  await signInAs(page, student.email);
  await page.goto(`/checkout/plano/plano-estudo-${tag}`);
  await page.getByLabel('CPF').fill('390.533.447-05');
  await page.getByLabel('Telefone').fill('(21) 99876-5432');
  await page.getByRole('button', { name: 'Cartão' }).click();
  const submit = page.getByRole('button', { name: 'Assinar por R$ 49,90/mês' });
  const form = page.getByRole('form', { name: 'Pagamento' });

  // 1234 5678 9012 3456 and 2020: said beside the fields; nothing is sent.
  await fillCard(page, { number: '1234567890123456', year: '2020' });
  await submit.click();
  await expect(form.getByText('Número do cartão inválido. Confira os dígitos.')).toBeVisible();
  await expect(form.getByText('Cartão vencido. Confira o ano de validade.')).toBeVisible();
  expect(await subscriptions()).toEqual([]);

  // A card Asaas declines: its words beside the form, still there once the toast has gone.
  await fillCard(page, { number: '4916561358240741' });
  await submit.click();
  const refusal = form.getByTestId('payment-refusal');
  await expect(refusal).toContainText(DECLINED);
  await expect(refusal).toHaveAttribute('role', 'alert');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  await expect(refusal).toBeVisible();
  await refusal.scrollIntoViewIfNeeded();
  await photograph(page, 'plan-checkout-refused');
  // Editing the card is acting on it.
  await page.getByLabel('Número do cartão').fill('5184019740373151');
  await expect(refusal).toHaveCount(0);
  await submit.click();
  await expect(refusal).toContainText(DECLINED);
  expect(await subscriptions()).toEqual([{ status: 'FAILED' }, { status: 'FAILED' }]);

  // A good card: Asaas's invoice, then back to the profile, which says so.
  await page.getByLabel('Número do cartão').fill('5162306219378829');
  await submit.click();
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/`));
  await page.getByRole('link', { name: 'Voltar para o site' }).click();
  await expect(page).toHaveURL(/\/profile\?assinatura=retorno$/);
  const notice = page.getByTestId('subscription-return');
  await expect(notice).toContainText('Assinatura ativa!');
  await expect(notice).toContainText(`Você já tem acesso aos cursos do ${name}.`);
  await expect(notice).toBeInViewport();
  await photograph(page, 'profile-subscribed');
  await notice.getByRole('link', { name: 'Ver meus cursos' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Meus Cursos' })).toBeVisible();

  // Staff: the buyer once among the subscribers; the two refusals under Falhas.
  const staff = await browser.newPage();
  await signInAs(staff, 'admin@escola-demo.com.br');
  await staff.goto(`/admin/plans?assinantes=${plan.id}`);
  const dialog = staff.getByRole('dialog', { name: `Assinantes de ${name}` });
  await expect(dialog.getByRole('rowheader', { name: new RegExp(`Bruna Assinante ${tag}`) })).toHaveCount(1);
  await expect(dialog.getByText('Ativa', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Falhou')).toHaveCount(0);
  await photograph(staff, 'plan-subscribers');
  await dialog.getByRole('tab', { name: 'Falhas' }).click();
  await expect(staff).toHaveURL(new RegExp(`assinantes=${plan.id}&situacao=falhas$`));
  await expect(dialog.getByText('Falhou')).toHaveCount(2);
  await expect(dialog.getByText('2 tentativas')).toBeVisible();
  await photograph(staff, 'plan-subscribers-failed');
  await staff.close();
});

test("course checkout: Asaas's refusal stays beside the form; the selected method's text reads at 4.5:1 on its tint", async ({ page }) => {
  const { email } = await freshStudent('Caio Comprador', { enrollIn: [] });
  await signInAs(page, email);
  await page.goto(`/checkout?course=${COURSE.marketing}`);
  await page.getByLabel('CPF').fill('390.533.447-05');
  await page.getByLabel('Telefone').fill('(21) 99876-5432');
  const card = page.getByRole('button', { name: 'Cartão' });
  await card.click();
  await expect(card).toHaveAttribute('aria-pressed', 'true');

  expect(await paintedContrast(card, card)).toBeGreaterThanOrEqual(4.5);
  // The order bump's price sits on the same tint.
  const bump = page.getByRole('region', { name: 'Oferta especial' });
  expect(await paintedContrast(bump.getByText('R$ 97,00', { exact: true }), bump)).toBeGreaterThanOrEqual(4.5);

  await fillCard(page, { number: '4916561358240741' });
  await page.getByRole('button', { name: /^Pagar R\$/ }).click();
  const refusal = page.getByRole('form', { name: 'Pagamento' }).getByTestId('payment-refusal');
  await expect(refusal).toContainText(DECLINED);
  await refusal.scrollIntoViewIfNeeded();
  await photograph(page, 'course-checkout-refused');
  await page.getByLabel('CVV').fill('319');
  await expect(refusal).toHaveCount(0);
});

test('a YouTube player that cannot load says so with a retry, and leaves no unhandled rejection', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { email } = await freshStudent('Vera Vídeo');
  await signInAs(page, email);
  let asked = 0;
  await page.route('https://www.youtube.com/iframe_api', (route) => {
    asked++;
    return route.abort('internetdisconnected');
  });
  await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.welcome}`);
  const frame = page.getByTestId('video-frame');
  const failure = frame.getByRole('alert');
  await expect(failure).toHaveText(/Não foi possível carregar o vídeo\. Verifique sua conexão e tente de novo\./);
  await photograph(page, 'lesson-video-failed');

  // Back online: the retry asks again and draws the player.
  await page.unroute('https://www.youtube.com/iframe_api');
  await page.route('https://www.youtube.com/iframe_api', (route) => {
    asked++;
    return route.fulfill({
      contentType: 'text/javascript',
      body: `window.YT = { PlayerState: { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 },
        Player: function (el, opts) { setTimeout(function () { opts.events.onReady({}); }); return new Proxy({}, { get: function () { return function () { return 0; }; } }); } };
        window.onYouTubeIframeAPIReady();`,
    });
  });
  await page.route(/^https:\/\/www\.youtube(-nocookie)?\.com\/embed\//, (route) => route.fulfill({ contentType: 'text/html', body: '<title>YouTube</title>' }));
  await failure.getByRole('button', { name: 'Tentar novamente' }).click();
  await expect(frame.getByRole('alert')).toHaveCount(0);
  await expect(frame.locator('youtube-video')).toHaveCount(1);
  expect(asked).toBe(2);
  expect(errors).toEqual([]);
});

test('a new student is greeted and shown where to start; a returning one reads the SPEC’s words', async ({ page, browser }) => {
  const { email } = await freshStudent('Mariana Souza Lima', { enrollIn: [] });
  await signInAs(page, email);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Boas-vindas, Mariana!' })).toBeVisible();
  await expect(page.getByText('Que bom ter você aqui. Escolha um curso e comece a aprender.')).toBeVisible();
  await expect(page.getByText('Bem-vindo de volta')).toHaveCount(0);
  await expect(page.getByText(/0 de 0 aulas/)).toHaveCount(0);
  const start = page.getByRole('region', { name: 'Comece por aqui' });
  await expect(start).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cursos Disponíveis' })).toBeVisible();
  await photograph(page, 'home-first-visit');
  await start.getByRole('link', { name: 'Ver cursos disponíveis' }).click();
  await expect(page.getByRole('heading', { name: 'Cursos Disponíveis' })).toBeInViewport();

  const returning = await browser.newPage();
  await signInAs(returning, 'aluno@escola-demo.com.br');
  await returning.goto('/');
  await expect(returning.getByRole('heading', { level: 1, name: 'Bem-vindo de volta' })).toBeVisible();
  await expect(returning.getByText('Continue sua jornada de aprendizado')).toBeVisible();
  await photograph(returning, 'home-returning');
  await returning.close();
});

test("on a phone the complete button leaves the lesson's text readable; from 640 px it floats", async ({ page }) => {
  const { email } = await freshStudent('Lia Leitora');
  await signInAs(page, email);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.charts}`);
  const button = page.getByRole('button', { name: 'Marcar como concluída' });
  const content = page.getByTestId('lesson-content');
  await expect(button).toBeVisible();
  await expect(content).toBeVisible();
  // The text's end at the bottom of the screen, where a floating button sits.
  await content.evaluate((el) => el.lastElementChild!.scrollIntoView({ block: 'end' }));
  const overlap = async () => {
    const [b, c] = [await button.boundingBox(), await content.boundingBox()];
    return !!b && !!c && b.x < c.x + c.width && c.x < b.x + b.width && b.y < c.y + c.height && c.y < b.y + b.height;
  };
  expect(await overlap()).toBe(false);
  await page.screenshot({ path: test.info().outputPath('lesson-content-end-360.png') });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath('lesson-top-360.png') });

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('complete-lesson')).toHaveCSS('position', 'fixed');
  await page.screenshot({ path: test.info().outputPath('lesson-1280.png') });
  await button.click();
  await expect(page.getByRole('button', { name: 'Aula concluída' })).toBeDisabled();
});
