import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchoolRow } from '@/platform/session';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { adminCommentKeys } from '@/features/discussions/api/admin-hooks';
import AdminLayout from './admin-layout';

const admin = vi.hoisted(() => ({ fetchAdminCommentCounts: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/features/discussions/api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...admin }));

const school = { id: 's1', name: 'Escola Demo', member_area_name: 'Área Demo' } as SchoolRow;
const open = () => renderScreen(<AdminLayout />, { route: '/admin', session: signedIn({ isAdmin: true, school }) });
const menu = () => within(screen.getByRole('navigation', { name: 'Menu administrativo' }));

describe('AdminLayout sidebar', () => {
  beforeAll(() => {
    // jsdom has no matchMedia: a desktop window (the sidebar, not the phone's sheet).
    window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  });
  beforeEach(() => admin.fetchAdminCommentCounts.mockReset());

  it('shows the school\'s unanswered questions beside "Comentários", in the link\'s name', async () => {
    admin.fetchAdminCommentCounts.mockResolvedValue({ unanswered: 3, pending: 1, hidden: 2 });
    open();
    const link = await menu().findByRole('link', { name: 'Comentários, 3 sem resposta' });
    expect(link).toHaveAttribute('href', '/admin/comments');
    expect(link).toHaveTextContent('Comentários3');
    expect(admin.fetchAdminCommentCounts).toHaveBeenCalledWith(expect.anything(), 's1');
  });

  it('no badge when nothing waits for an answer', async () => {
    admin.fetchAdminCommentCounts.mockResolvedValue({ unanswered: 0, pending: 0, hidden: 0 });
    const { queryClient } = open();
    await waitFor(() => expect(queryClient.getQueryState(adminCommentKeys.counts('s1'))?.status).toBe('success'));
    const link = menu().getByRole('link', { name: 'Comentários' });
    expect(link).toHaveTextContent(/^Comentários$/);
  });
});
