// Issue 22's journeys. The first: the admin imports three new students from a CSV and enrolls them; each gets
// "Acesso liberado" (no password in it); one follows the link, chooses a password on the school's page
// and lands on the home with the course. A used link then says so. The e-mails go out through the
// scheduled send-emails job; here the journey asks for that drain at once instead of waiting for the
// next minute (the schedule itself is covered by tests/integration/platform/cron-net.test.ts).
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config';
import { expect, inbox, signInAndWaitHome, test } from './helpers';
import { API_URL, COURSE, freshSchoolAdmin, freshStudent, signInAs } from './learning-helpers';

const SUBJECT = 'Escola Demo: seu acesso foi liberado';

async function sendQueuedEmails() {
  const res = await fetch(`${API_URL}/functions/v1/send-emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` },
    body: JSON.stringify({ limit: 200 }),
  });
  expect(res.status).toBe(200);
}

test('three students imported from a CSV get Acesso liberado; one chooses a password through the link and sees the course', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const emails = [1, 2, 3].map((i) => `acesso.${tag}.${i}@exemplo.com.br`);
  const csv = Buffer.from(['nome;email;cpf;telefone', ...emails.map((e, i) => `Aluna Acesso ${i + 1};${e};;`)].join('\r\n'), 'latin1');

  const admin = await freshSchoolAdmin('Admin Acesso');
  await signInAndWaitHome(page, admin.email);
  await page.goto('/admin/students');
  await page.getByRole('button', { name: 'Importar CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar alunos' });
  await dialog.getByLabel('Arquivo CSV').setInputFiles({ name: 'alunos.csv', mimeType: 'text/csv', buffer: csv });
  await dialog.getByLabel('Matricular todos no curso (opcional)').selectOption({ label: 'Excel Essencial para o Trabalho' });
  await dialog.getByRole('button', { name: 'Importar 3 alunos' }).click();
  await expect(dialog.getByRole('list', { name: 'Resultado da importação' })).toContainText('3 alunos criados');
  await dialog.getByRole('button', { name: 'Concluir' }).click();

  await sendQueuedEmails();
  for (const email of emails) {
    await expect.poll(async () => (await inbox(email)).filter((m) => m.subject === SUBJECT).length).toBe(1);
  }
  const [mail] = (await inbox(emails[0]!)).filter((m) => m.subject === SUBJECT);
  expect(mail!.text).toContain('com acesso ao curso Excel Essencial para o Trabalho');
  expect(mail!.text).not.toMatch(/Aluno@2026|senha temporária/i);
  const link = mail!.links.find((l) => l.includes('/acesso#token='))!;
  expect(link).toBeTruthy();

  // The student, on her own browser.
  const student = await (await browser.newContext()).newPage();
  await student.goto(link);
  await expect(student.getByRole('heading', { name: 'Crie sua senha' })).toBeVisible();
  // The token left the address bar as soon as the page read it.
  expect(new URL(student.url()).hash).toBe('');
  await student.getByRole('button', { name: 'Criar minha senha' }).click();
  await expect(student).toHaveURL(/\/escola-demo$/);
  const form = student.getByRole('dialog', { name: 'Redefinir senha' });
  await form.getByLabel('Nova Senha').fill('minha-senha-nova-1');
  await form.getByLabel('Confirmar Senha').fill('minha-senha-nova-1');
  await form.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(student.getByText('Senha alterada!')).toBeVisible();
  await expect(student).toHaveURL(/\/$/);
  // Her first visit: the school's announcement of the day comes first.
  await student.getByRole('dialog').getByRole('button', { name: 'Entendi' }).click();
  await expect(student.getByRole('heading', { name: 'Meus Cursos' })).toBeVisible();
  await expect(student.getByText('Excel Essencial para o Trabalho').first()).toBeVisible();

  // The same link again, anywhere: used, and a new one can be asked for (once).
  const again = await (await browser.newContext()).newPage();
  await again.goto(link);
  await again.getByRole('button', { name: 'Criar minha senha' }).click();
  await expect(again.getByRole('heading', { name: 'Este link já foi usado.' })).toBeVisible();
  await again.getByRole('button', { name: 'Enviar novo link' }).click();
  await expect(again.getByRole('heading', { name: 'Enviamos um novo link' })).toBeVisible();
  await again.screenshot({ path: test.info().outputPath('acesso-novo-link.png') });
});

test('a PIX purchase: Pagamento pendente with the PIX code, then Pagamento confirmado after Simular pagamento; Descadastrar asks, then works signed out', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const { email } = await freshStudent('Bruna Compradora', { enrollIn: [] });
  await signInAs(page, email);
  await page.goto(`/checkout?course=${COURSE.marketing}`);
  await page.getByLabel('CPF').fill('390.533.447-05');
  await page.getByLabel('Telefone').fill('(21) 99876-5432');
  await page.getByRole('button', { name: 'Pagar R$ 297,00' }).click();
  await expect(page.getByRole('button', { name: 'Simular pagamento' })).toBeVisible();

  await sendQueuedEmails();
  const pending = (await inbox(email)).find((m) => m.subject === 'Pagamento pendente: Marketing Digital para Pequenos Negócios');
  expect(pending?.text).toMatch(/PIX copia e cola:\n00020126580014br\.gov\.bcb\.pix/);
  expect(pending?.links.some((l) => l.includes('/i/pay_'))).toBe(true);

  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByText('Pagamento confirmado!')).toBeVisible();
  await sendQueuedEmails();
  await expect.poll(async () => (await inbox(email)).map((m) => m.subject)).toEqual(
    expect.arrayContaining(['Pagamento confirmado: Marketing Digital para Pequenos Negócios', 'Matrícula feita: Marketing Digital para Pequenos Negócios']),
  );
  const receipt = (await inbox(email)).find((m) => m.subject.startsWith('Pagamento confirmado'))!;
  expect(receipt.text).toMatch(/Valor: R\$\s297,00/);
  expect(receipt.text).toContain('Forma de pagamento: PIX');

  // "Nova matrícula" may be stopped: its Descadastrar link, opened signed out.
  const enrolled = (await inbox(email)).find((m) => m.subject.startsWith('Matrícula feita'))!;
  const unsubscribe = enrolled.links.find((l) => l.includes('/descadastrar#token='))!;
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(unsubscribe);
  // The page asks first (issue 46); the confirmation stops the kind.
  await expect(visitor.getByRole('heading', { name: 'Parar de receber estes e-mails?' })).toBeVisible();
  await visitor.getByRole('button', { name: 'Não quero mais receber estes e-mails' }).click();
  await expect(visitor.getByRole('heading', { name: 'Pronto: estes e-mails não vão mais chegar' })).toBeVisible();
  await expect(visitor.getByText('Você não vai mais receber os e-mails de "Nova matrícula".', { exact: false })).toBeVisible();
  // Her profile shows it off.
  await page.goto('/profile');
  await expect(page.getByRole('region', { name: 'Preferências de e-mail' }).getByRole('switch', { name: 'Nova matrícula' })).not.toBeChecked();
});
