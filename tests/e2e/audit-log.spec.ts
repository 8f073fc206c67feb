// Issue 44: an admin changes a course's price and finds the change, with their name, in "Registro de
// atividades": the row says who, Alterou and the course, the price before and after; "Ver mudança"
// shows them side by side. At 360 px the row's "Ver mudança" is on screen at the right edge. An
// instructor has no entry in the menu and is sent away from the page.
import { expect, test } from './helpers';
import { freshSchoolAdmin, signInAs } from './learning-helpers';

const ORATORIA = 'c0000000-0000-4000-8000-000000000003'; // a draft of Escola Demo that no other journey prices
// Both widths change the same course's price: one after the other, so each knows the price before.
test.describe.configure({ mode: 'serial' });

for (const width of [1280, 360]) {
  test(`an admin changes a course price and sees it with their name in Registro de atividades (${width} px)`, async ({
    page,
  }) => {
    const name = `Admin Auditoria ${width}`;
    const admin = await freshSchoolAdmin(name);
    await page.setViewportSize({ width, height: 900 });
    await signInAs(page, admin.email);

    await page.goto(`/admin/courses/${ORATORIA}/edit`);
    await expect(page.getByRole('heading', { name: 'Editar Curso' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Editar Curso' });
    const price = form.getByLabel('Preço (R$)');
    await expect(price).not.toHaveValue('');
    const before = await price.inputValue();
    const after = width === 1280 ? '123,45' : '234,56';
    await price.fill(after);
    await form.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText('Curso atualizado!', { exact: true })).toBeVisible();

    await page.goto('/admin/audit');
    await expect(page.getByRole('heading', { name: 'Registro de atividades' })).toBeVisible();
    // Only this admin's changes: the person filter, as a person uses it.
    await page.getByLabel('Pessoa').selectOption({ label: name });
    await expect(page).toHaveURL(new RegExp(`pessoa=${admin.id}`));
    const table = page.getByRole('table', { name: 'Registro de atividades' });
    const row = table.getByRole('row').filter({ hasText: 'Curso "Oratória e Comunicação no Trabalho"' }).first();
    await expect(row).toContainText(name);
    await expect(row).toContainText('Alterou');
    await expect(row).toContainText(`Preço: R$ ${before} → R$ ${after}`);

    const open = row.getByRole('button', { name: 'Ver mudança' });
    if (width === 360) {
      const box = await open.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    }
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Alterou Curso "Oratória e Comunicação no Trabalho"' });
    await expect(dialog).toContainText(name);
    await expect(dialog.getByRole('row', { name: /Preço/ }).getByRole('cell')).toHaveText([
      `R$ ${before}`,
      `R$ ${after}`,
    ]);
  });
}

test('an instructor has no Registro de atividades', async ({ page }) => {
  await signInAs(page, 'instrutor@escola-demo.com.br');
  await page.goto('/admin/courses');
  await expect(page.getByRole('navigation', { name: 'Menu administrativo' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Registro de atividades' })).toHaveCount(0);
  await page.goto('/admin/audit');
  await expect(page).toHaveURL(/\/admin$/);
});
