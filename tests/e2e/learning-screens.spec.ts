// Screenshots of the student pages at 1280 px and 360 px (written to test-results/learning-screens/
// for people to look at), with the checks a screenshot would reveal: nothing wider than the screen,
// and the desktop-only side panel hidden on phones.
import { expect, test } from '@playwright/test';
import { COURSE, LESSON, signInAs } from './learning-helpers';

// The first requests to a freshly started backend can be slow: allow more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 360, height: 740 },
];

for (const size of sizes) {
  test(`home, course and player look right at ${size.width} px`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signInAs(page, 'aluno@escola-demo.com.br');
    const noOverflow = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    const shot = (name: string) => page.screenshot({ path: `test-results/learning-screens/${name}-${size.name}.png`, fullPage: true });

    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Meus Cursos' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await noOverflow();
    await shot('home');

    await page.goto(`/course/${COURSE.excel}`);
    await expect(page.getByRole('heading', { name: 'Módulos do Curso' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await noOverflow();
    await shot('course');

    await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.formulas}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Fórmulas básicas' })).toBeVisible();
    await expect(page.getByTestId('lesson-video')).toBeVisible();
    const panel = page.getByRole('heading', { name: 'Ver todos os módulos' });
    if (size.width >= 1024) await expect(panel).toBeVisible();
    else await expect(panel).toBeHidden();
    await page.waitForTimeout(500);
    await noOverflow();
    await shot('player');
  });
}
