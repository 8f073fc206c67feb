// The daily popup as a student meets it on the home, the network mocked at the bell's request
// (src/concepts/bell.ts): it opens when the announcements arrive, unless the person has already started
// using the page, whose click or key it must not take.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { testAnnouncement } from '@/test/fixtures';
import { signedIn } from '@/test/session';
import { seenToday } from '../lib/seen';
import { AnnouncementPopup } from './announcement-popup';

const bell = vi.hoisted(() => ({ fetchBell: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/concepts/bell', async (importOriginal) => ({ ...(await importOriginal<object>()), ...bell }));

const SCHOOL = testAnnouncement.school_id;
const feed = {
  announcements: [testAnnouncement],
  notifications: [],
  unread: 0,
};

/** The bell's answer, held until `arrive()`. */
function heldBell() {
  let arrive!: () => void;
  bell.fetchBell.mockReturnValue(new Promise((resolve) => (arrive = () => resolve(feed))));
  return () => act(() => arrive());
}

function renderHome() {
  return renderScreen(
    <>
      <button type="button">Continuar</button>
      <AnnouncementPopup schoolId={SCHOOL} />
    </>,
    { session: signedIn() },
  );
}

// The dialog is a lazy chunk: its first open loads it (slow on a busy machine).
describe('AnnouncementPopup', { timeout: 20_000 }, () => {
  beforeEach(() => {
    bell.fetchBell.mockReset();
    localStorage.clear();
  });

  it('opens when the announcements arrive; Entendi closes it for the rest of the day', async () => {
    const arrive = heldBell();
    const user = userEvent.setup();
    renderHome();
    await arrive();
    const dialog = await screen.findByRole('dialog', { name: 'Aula ao vivo sexta' }, { timeout: 10_000 });
    // Clicks inside the open dialog are not "using the page": it stays until Entendi.
    await user.click(dialog);
    await user.click(screen.getByRole('button', { name: 'Entendi' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(seenToday(SCHOOL)).toBe(true);
  });

  it('does not open over a page the person has started using, and is left for their next return', async () => {
    const arrive = heldBell();
    const user = userEvent.setup();
    const { unmount } = renderHome();
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    await arrive();
    await waitFor(() => expect(bell.fetchBell).toHaveBeenCalled());
    // Long enough for the dialog's chunk, which the first test loaded.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(seenToday(SCHOOL)).toBe(false);
    unmount();

    // The next visit to the home: nothing clicked before it opens.
    bell.fetchBell.mockResolvedValue(feed);
    renderHome();
    expect(await screen.findByRole('dialog', { name: 'Aula ao vivo sexta' }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('a key pressed before the announcements arrive counts as using the page too', async () => {
    const arrive = heldBell();
    const user = userEvent.setup();
    renderHome();
    await user.keyboard('{Tab}');
    await arrive();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
