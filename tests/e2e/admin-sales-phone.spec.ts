// Issue 46: on a phone Vendas put "Reembolsar" off-screen (the table is wider than the screen and the
// actions were its last column). At 360 px each sale's refund button is in view at the right edge,
// next to the sale's date at the left, and opens the refund dialog; at 1280 px the table fits.
import { expect, test } from './helpers';
import { freshSchoolAdmin, signInAs } from './learning-helpers';

for (const width of [360, 1280]) {
  test(`Vendas at ${width} px: every "Reembolsar" is on screen and opens the refund dialog`, async ({ page }) => {
    const admin = await freshSchoolAdmin(`Admin Vendas ${width}`);
    await page.setViewportSize({ width, height: 800 });
    await signInAs(page, admin.email);
    await page.goto('/admin/sales');
    const table = page.getByRole('table', { name: 'Vendas' });
    const refunds = table.getByRole('button', { name: /^Reembolsar a venda de / });
    await expect(refunds.first()).toBeVisible();
    expect(await refunds.count()).toBeGreaterThan(1);
    for (const button of await refunds.all()) {
      const name = await button.getAttribute('aria-label');
      // Scrolled to vertically only (the page), as a person does; the table is not scrolled sideways.
      const onScreen = await button.evaluate((el) => {
        window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 300);
        const r = el.getBoundingClientRect();
        // Nothing covers it: a tap in its middle lands on the button itself.
        return { left: r.left, right: r.right, hit: el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)) };
      });
      expect(onScreen.left, name!).toBeGreaterThanOrEqual(0);
      expect(onScreen.right, name!).toBeLessThanOrEqual(width);
      expect(onScreen.hit, name!).toBe(true);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    // The row's date stays in view at the left while the middle columns scroll.
    const firstRow = table.getByRole('row').nth(1);
    const date = (await firstRow.getByRole('cell').first().boundingBox())!;
    expect(date.x).toBeGreaterThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await table.evaluate((el) => el.parentElement!.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: test.info().outputPath(`vendas-${width}.png`) });

    await refunds.first().click();
    const dialog = page.getByRole('dialog', { name: 'Reembolsar venda?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
  });
}
