import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import type { CourseRow } from '../../api/admin-hooks';
import { CourseForm } from './course-form';

// The course form's order bump (issue 24): another course of the school on this course's checkout.
const api = vi.hoisted(() => ({ fetchCourseOptions: vi.fn(), saveCourse: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../../api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const row = (id: string, title: string, extra: Partial<CourseRow> = {}): CourseRow => ({
  id,
  title,
  slug: title.toLowerCase().replace(/\s+/g, '-'),
  school_id: 's1',
  instructor_id: 'u1',
  description: null,
  purchase_url: null,
  price: 297,
  max_installments: 6,
  status: 'PUBLISHED',
  total_lessons: 0,
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  banner_url: null,
  banner_position: '50% 50%',
  certificate_enabled: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...extra,
});
const marketing = row('c1', 'Marketing Digital');
const options = [
  marketing,
  row('c2', 'Excel Essencial', { price: 197 }),
  row('c3', 'Python do Zero', { status: 'DRAFT' }),
];
const open = (bump: { bump_course_id: string; price: number } | null) =>
  renderScreen(<CourseForm course={marketing} bump={bump} schoolId="s1" userId="u1" />, {
    route: '/admin/courses/c1/edit',
  });
const section = () => screen.getByRole('region', { name: 'Oferta adicional' });

describe('CourseForm: order bump', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    vi.mocked(toast.error).mockReset();
    api.fetchCourseOptions.mockResolvedValue(options);
    api.saveCourse.mockImplementation(async () => marketing);
  });

  it('offers another course of the school: pt-BR reasons first, then the course and its special price are saved with the course', async () => {
    const view = open(null);
    const offer = within(section()).getByRole('switch', { name: 'Oferecer outro curso no checkout' });
    expect(offer).not.toBeChecked();
    expect(within(section()).queryByLabelText(/Curso oferecido/)).not.toBeInTheDocument();
    await userEvent.click(offer);

    const select = within(section()).getByLabelText(/Curso oferecido/);
    // The school's other courses, never the course on sale.
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Selecione um curso', 'Excel Essencial', 'Python do Zero']),
    );
    await userEvent.type(within(section()).getByLabelText(/Preço especial/), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    expect(await within(section()).findByText('Selecione o curso oferecido')).toBeInTheDocument();
    expect(within(section()).getByText('O preço especial deve ser de pelo menos R$ 5,00')).toBeInTheDocument();
    expect(api.saveCourse).not.toHaveBeenCalled();

    await userEvent.selectOptions(select, 'c3');
    expect(within(section()).getByText(/Rascunho: a oferta só aparece quando ele for publicado/)).toBeInTheDocument();
    await userEvent.selectOptions(select, 'c2');
    expect(within(section()).getByText('Preço normal: R$ 197,00')).toBeInTheDocument();
    const price = within(section()).getByLabelText(/Preço especial/);
    await userEvent.clear(price);
    await userEvent.type(price, '97,00');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() =>
      expect(api.saveCourse).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({
          id: 'c1',
          hadBump: false,
          values: expect.objectContaining({
            title: 'Marketing Digital',
            bump_enabled: true,
            bump_course_id: 'c2',
            bump_price: '97,00',
          }),
        }),
      ),
    );
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/courses'));
  });

  it('an offer shows as saved; turning it off saves the course without it', async () => {
    open({ bump_course_id: 'c2', price: 97 });
    expect(within(section()).getByRole('switch', { name: 'Oferecer outro curso no checkout' })).toBeChecked();
    await waitFor(() => expect(within(section()).getByLabelText(/Curso oferecido/)).toHaveValue('c2'));
    expect(within(section()).getByLabelText(/Preço especial/)).toHaveValue('97,00');

    await userEvent.click(within(section()).getByRole('switch', { name: 'Oferecer outro curso no checkout' }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() =>
      expect(api.saveCourse).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ hadBump: true, values: expect.objectContaining({ bump_enabled: false }) }),
      ),
    );
  });

  it("the database's refusal of the offer is the error toast in pt-BR, and the form stays", async () => {
    api.saveCourse.mockRejectedValue(
      Object.assign(
        new Error('new row for relation "course_bumps" violates check constraint "course_bumps_price_check"'),
        { code: '23514' },
      ),
    );
    open({ bump_course_id: 'c2', price: 97 });
    await waitFor(() => expect(within(section()).getByLabelText(/Curso oferecido/)).toHaveValue('c2'));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao salvar curso', {
        description: 'O preço especial da oferta adicional deve ser de pelo menos R$ 5,00.',
      }),
    );
    expect(screen.getByRole('form', { name: 'Editar Curso' })).toBeInTheDocument();
  });
});
