// Issue 37, hole 9: a comment's link shows where it goes. A student posts, through the API, each trick
// that made a link read "escola-demo" and open another site (a right-to-left override, a lookalike
// slash "∕", a Cyrillic letter in the host, a user name before "@"), under a name that a right-to-left
// override turned into "Caio Administração". Another student reads the lesson in Chromium: for every
// link, the text as the browser lays it out (characters read left to right on the screen) must be its
// logical text, and the host it shows must be the host of its href. Controls: links to the school's
// own page and to an ordinary site, a name with accents, and comments in Arabic and Hebrew still show
// as written.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { COURSE, LESSON, api, freshStudent, passwordSession, signInAs } from './learning-helpers';

test.describe.configure({ timeout: 90_000 });

const RLO = '\u202E';
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const LESSON_URL = `/course/${COURSE.excel}/lesson/${LESSON.charts}`;

/** The text of an element as it is laid out: its characters in screen order (line by line, left to
 * right), zero-width ones (controls) left out. innerText, by contrast, is the logical order. */
function visualText(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const glyphs: { ch: string; x: number; y: number }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      let offset = 0;
      for (const ch of text) {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + ch.length);
        offset += ch.length;
        const rect = range.getClientRects()[0];
        if (rect && rect.width > 0) glyphs.push({ ch, x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
      }
    }
    glyphs.sort((a, b) => (Math.abs(a.y - b.y) > 4 ? a.y - b.y : a.x - b.x));
    return glyphs.map((g) => g.ch).join('');
  });
}

/** The host a reader takes from a link's visible text: plain host characters after "http(s)://", up to
 * "/", "?", "#" or the end. A lookalike character ends it before the real host does. */
function shownHost(shown: string): string | null {
  return shown.match(/^https?:\/\/([a-z0-9.\-:[\]]+)(?=[/?#]|$)/i)?.[1]?.toLowerCase() ?? null;
}

async function postAs(email: string, userId: string, comments: string[]) {
  const session = await passwordSession(email);
  for (const comment of comments) {
    await api('/rest/v1/lesson_comments', { method: 'POST', token: session.access_token, body: JSON.stringify({ user_id: userId, lesson_id: LESSON.charts, comment }) });
  }
}

/** The author's name at the head of a comment card (the first element of its first line). */
const authorName = (card: Locator) => card.locator('p').first().locator(':scope > *').first();

function card(page: Page, tag: string) {
  return page.getByTestId('comment').filter({ hasText: tag });
}

/** The one link of a comment: what it shows, as laid out, against where it goes. */
async function expectHonestLink(page: Page, tag: string) {
  const link = card(page, tag).getByRole('link');
  await expect(link).toHaveCount(1);
  const shown = await visualText(link);
  const logical = (await link.innerText()).trim();
  const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
  // Soft: a run before the fix reports every trick that gets through, not only the first.
  expect.soft(shown, `${tag}: read on screen as written`).toBe(logical);
  expect.soft(shownHost(shown), `${tag}: "${shown}" shows the host it opens (${href})`).toBe(new URL(href).host);
  await expect.soft(link).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');
  await expect.soft(link).toHaveAttribute('target', '_blank');
  return { shown, href };
}

test('comment links show the host they open, and names read as they are stored, in Chromium', async ({ browser, baseURL }) => {
  const run = Date.now().toString(36);
  const tag = (n: string) => `[${n}-${run}]`;

  // The attacker: a name that an override displays as "Caio Administração", and four links.
  const attacker = await freshStudent(`Caio ${RLO}oãçartsinimdA`);
  const tricks = {
    rtl: `${tag('rtl')} ${RLO}https://evil.example/?rb.moc.omed-alocse//:sptth`,
    slash: `${tag('slash')} https://escola-demo.com.br\u2215aulas.evil.example/login`,
    cyrillic: `${tag('cyrillic')} https://escola-d\u0435mo.com.br/login`,
    userinfo: `${tag('userinfo')} https://escola-demo.com.br@evil.example/login`,
  };
  await postAs(attacker.email, attacker.id, Object.values(tricks));

  // The reader: accents in the name; links to the school's own page and to another site; Arabic and Hebrew.
  const reader = await freshStudent('José da Conceição');
  const ownPage = `${baseURL}${LESSON_URL}`;
  const controls = {
    own: `${tag('own')} Revejam a aula ${ownPage}`,
    ordinary: `${tag('ordinary')} Fonte: https://exemplo.com.br/procv?aba=1.`,
    arabic: `هل يمكن شرح الدالة مرة أخرى؟ ${tag('ar')}`,
    hebrew: `איך משתמשים בפונקציה הזאת? ${tag('he')}`,
  };
  await postAs(reader.email, reader.id, Object.values(controls));

  // In the database: no bidirectional control in the attacker's name nor in the comment that carried one.
  const service = { key: LOCAL_SERVICE_ROLE_KEY };
  const [profile] = (await api(`/rest/v1/profiles?select=name&id=eq.${attacker.id}`, service)) as { name: string }[];
  expect.soft(profile!.name).toBe('Caio oãçartsinimdA');
  const stored = (await api(`/rest/v1/lesson_comments?select=comment,author_name&user_id=eq.${attacker.id}`, service)) as { comment: string; author_name: string }[];
  expect(stored).toHaveLength(4);
  for (const row of stored) {
    expect.soft(row.comment).not.toMatch(BIDI_CONTROLS);
    expect.soft(row.author_name).toBe('Caio oãçartsinimdA');
  }
  const readerRows = (await api(`/rest/v1/lesson_comments?select=comment&user_id=eq.${reader.id}`, service)) as { comment: string }[];
  expect(readerRows.map((r) => r.comment).sort()).toEqual(Object.values(controls).sort());

  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, reader.email);
  await page.goto(LESSON_URL);
  await expect(card(page, tag('he'))).toBeVisible();

  // Each trick: what is read on the screen is where the link goes.
  const rtl = await expectHonestLink(page, tag('rtl'));
  expect(new URL(rtl.href).host).toBe('evil.example');
  expect.soft(rtl.shown.startsWith('https://evil.example/'), rtl.shown).toBe(true);
  const slash = await expectHonestLink(page, tag('slash'));
  expect.soft(slash.shown).toBe('https://escola-demo.com.xn--braulas-df0d.evil.example/login');
  const cyrillic = await expectHonestLink(page, tag('cyrillic'));
  expect.soft(cyrillic.shown).toBe('https://xn--escola-dmo-rsi.com.br/login');
  const userinfo = await expectHonestLink(page, tag('userinfo'));
  expect.soft(userinfo).toEqual({ shown: 'https://evil.example/login', href: 'https://evil.example/login' });
  // The whole line of the override trick reads in typing order too (nothing of it is reversed).
  const rtlText = card(page, tag('rtl')).getByRole('link').locator('xpath=..');
  expect.soft(await visualText(rtlText)).toBe(`${tag('rtl')} https://evil.example/?rb.moc.omed-alocse//:sptth`);

  // The attacker's name reads as stored, not as "Caio Administração".
  const attackerCard = card(page, tag('rtl'));
  await expect.soft(attackerCard).toHaveAttribute('aria-label', 'Comentário de Caio oãçartsinimdA');
  expect.soft(await visualText(authorName(attackerCard))).toBe('Caio oãçartsinimdA');

  // Controls: the school's own page and an ordinary site are links to exactly what was written.
  const own = await expectHonestLink(page, tag('own'));
  expect(own).toEqual({ shown: ownPage, href: ownPage });
  const ordinary = await expectHonestLink(page, tag('ordinary'));
  expect(ordinary).toEqual({ shown: 'https://exemplo.com.br/procv?aba=1', href: 'https://exemplo.com.br/procv?aba=1' });
  // A name with accents reads as written.
  const readerCard = card(page, tag('own'));
  await expect(readerCard).toHaveAttribute('aria-label', 'Comentário de José da Conceição');
  expect(await visualText(authorName(readerCard))).toBe('José da Conceição');
  // Arabic and Hebrew comments keep every letter and read right to left, starting at the right edge.
  for (const [key, text] of [
    ['ar', controls.arabic],
    ['he', controls.hebrew],
  ] as const) {
    const paragraph = card(page, tag(key)).getByText(tag(key)).locator('xpath=..');
    expect((await paragraph.innerText()).trim()).toBe(text);
    const layout = await paragraph.evaluate((p) => {
      const range = document.createRange();
      range.setStart(p.firstChild!.firstChild!, 0);
      range.setEnd(p.firstChild!.firstChild!, 1);
      return { direction: getComputedStyle(p).direction, firstRight: range.getBoundingClientRect().right, right: p.getBoundingClientRect().right };
    });
    expect(layout.direction, key).toBe('rtl');
    expect(Math.abs(layout.right - layout.firstRight), `${key}: the first letter is at the right edge`).toBeLessThan(2);
  }
  await page.screenshot({ path: test.info().outputPath('links-e-nomes.png'), fullPage: true });
  await context.close();
});
