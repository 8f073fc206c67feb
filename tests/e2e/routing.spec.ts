import { expect, test } from './helpers';

test('an unknown route renders the not-found page and logs the miss', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.goto('/rota/que-nao-existe');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  expect(errors.some((e) => e.includes('404 Error: User attempted to access non-existent route:') && e.includes('/rota/que-nao-existe'))).toBe(true);
});

for (const path of ['/', '/profile', '/admin', '/admin/courses', '/course/123', '/checkout']) {
  test(`a signed-out visit to ${path} lands on /auth`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
  });
}
