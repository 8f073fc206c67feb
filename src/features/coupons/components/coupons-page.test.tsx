import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { CouponsPage } from './coupons-page';

const api = vi.hoisted(() => ({
  fetchCoupons: vi.fn(),
  saveCoupon: vi.fn(),
  setCouponActive: vi.fn(),
  deleteCoupon: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
// The turmas of a course (public.admin_turmas): Marketing Digital has one.
vi.mock('@/concepts/turma-queries', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  fetchCourseTurmas: vi.fn(async (_client: unknown, courseId: string) =>
    courseId === 'c2' ? [{ id: 't1', course_id: 'c2', name: 'Turma de março', starts_on: '2027-03-10', ends_on: null }] : [],
  ),
}));

const courses = [
  { id: 'c1', title: 'Excel Essencial' },
  { id: 'c2', title: 'Marketing Digital' },
];
const coupon = (extra: object = {}) => ({
  id: 'k1',
  code: 'BEMVINDO20',
  kind: 'percent',
  amount: 20,
  valid_from: null,
  valid_until: null,
  max_uses: 10,
  max_uses_per_buyer: 1,
  all_courses: true,
  is_active: true,
  course_ids: [],
  turma_id: null,
  uses: 3,
  reserved: 1,
  revenue: 712.8,
  discounts: 178.2,
  created_at: '2026-01-01T00:00:00Z',
  ...extra,
});
const open = () => renderScreen(<CouponsPage schoolId="s1" courses={courses} />, { route: '/admin/coupons' });

describe('CouponsPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    vi.mocked(toast.error).mockReset();
    vi.mocked(toast.success).mockReset();
  });

  it('lists each coupon with its discount, validity, uses (and pending ones) and revenue; the switch deactivates it', async () => {
    api.fetchCoupons.mockResolvedValue([
      coupon(),
      coupon({
        id: 'k2',
        code: 'BLACK50',
        kind: 'fixed',
        amount: 50,
        max_uses: null,
        max_uses_per_buyer: null,
        reserved: 0,
        uses: 2,
        revenue: 494,
        discounts: 100,
        all_courses: false,
        course_ids: ['c2'],
        valid_from: '2026-11-01T03:00:00.000Z',
        valid_until: '2026-11-30T02:59:59.999Z',
      }),
    ]);
    api.setCouponActive.mockResolvedValue(undefined);
    open();
    const first = (await screen.findByRole('rowheader', { name: /BEMVINDO20/ })).closest('tr')!;
    expect(api.fetchCoupons).toHaveBeenCalledWith(expect.anything(), 's1');
    expect(within(first).getByText('20%')).toBeInTheDocument();
    expect(within(first).getByText('Sem prazo')).toBeInTheDocument();
    expect(within(first).getByText('3 de 10')).toBeInTheDocument();
    expect(within(first).getByText('(+1 pendente)')).toBeInTheDocument();
    expect(within(first).getByText('1 por comprador')).toBeInTheDocument();
    expect(within(first).getByText('R$ 712,80')).toBeInTheDocument();
    expect(within(first).getByText('Todos os cursos')).toBeInTheDocument();

    const second = screen.getByRole('rowheader', { name: /BLACK50/ }).closest('tr')!;
    expect(within(second).getByText('R$ 50,00')).toBeInTheDocument();
    expect(within(second).getByText('01/11/2026 a 29/11/2026')).toBeInTheDocument();
    expect(within(second).getByText('2')).toBeInTheDocument();
    expect(within(second).getByText('1 curso')).toBeInTheDocument();

    await userEvent.click(within(first).getByRole('switch', { name: 'Cupom BEMVINDO20 ativo' }));
    await waitFor(() =>
      expect(api.setCouponActive).toHaveBeenCalledWith(expect.anything(), { id: 'k1', is_active: false }),
    );
    expect(toast.success).toHaveBeenCalledWith('Cupom desativado!');
  });

  it("Novo Cupom says what is wrong, keeps what was typed, then saves a fixed value for the chosen courses and one's turma", async () => {
    api.fetchCoupons.mockResolvedValue([]);
    api.saveCoupon.mockResolvedValue(undefined);
    open();
    expect(await screen.findByText('Nenhum cupom criado ainda')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Novo Cupom' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo Cupom' });
    await userEvent.type(within(dialog).getByLabelText(/^Código/), 'black friday');
    await userEvent.type(within(dialog).getByLabelText(/^Valor \(%\)/), '120');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Cursos selecionados' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('A porcentagem vai de 0,01 a 100')).toBeInTheDocument();
    expect(within(dialog).getByText('Selecione pelo menos um curso')).toBeInTheDocument();
    expect(api.saveCoupon).not.toHaveBeenCalled();
    // Capitals, no spaces: what the buyer types in any case.
    expect(within(dialog).getByLabelText(/^Código/)).toHaveValue('BLACKFRIDAY');

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Valor fixo' }));
    const value = within(dialog).getByLabelText(/^Valor \(R\$\)/);
    await userEvent.clear(value);
    await userEvent.type(value, '50,00');
    await userEvent.type(within(dialog).getByLabelText('Válido até'), '2026-11-30');
    await userEvent.type(within(dialog).getByLabelText('Limite de usos (total)'), '100');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Marketing Digital' }));
    // Limited to the course's turma (issue 40): the choices are the chosen courses' turmas.
    const turma = await within(dialog).findByLabelText('Turma');
    expect(within(turma).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Qualquer turma',
      'Marketing Digital · Turma de março (A partir de 10/03/2027 (sem término))',
    ]);
    await userEvent.selectOptions(turma, 't1');
    // On unless the staff turns it off: this one is saved off, to be switched on when the campaign starts.
    const active = within(dialog).getByRole('switch', { name: 'Ativo' });
    expect(active).toBeChecked();
    await userEvent.click(active);
    expect(active).not.toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.saveCoupon).toHaveBeenCalledWith(expect.anything(), {
      coupon: undefined,
      schoolId: 's1',
      values: {
        code: 'BLACKFRIDAY',
        kind: 'fixed',
        amount: '50,00',
        valid_from: '',
        valid_until: '2026-11-30',
        max_uses: '100',
        max_uses_per_buyer: '',
        all_courses: 'selected',
        course_ids: ['c2'],
        is_active: false,
        turma_id: 't1',
      },
    });
    expect(toast.success).toHaveBeenCalledWith('Cupom criado!');
  });

  it('a code the school already has (any case) is refused on the field, and the dialog keeps the rest', async () => {
    api.fetchCoupons.mockResolvedValue([coupon({ uses: 0, reserved: 0 })]);
    api.saveCoupon.mockRejectedValue(
      Object.assign(new Error('duplicate key value violates unique constraint "coupons_school_code_key"'), {
        code: '23505',
      }),
    );
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Novo Cupom' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo Cupom' });
    await userEvent.type(within(dialog).getByLabelText(/^Código/), 'bemvindo20');
    await userEvent.type(within(dialog).getByLabelText(/^Valor \(%\)/), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Já existe um cupom com este código.')).toBeInTheDocument();
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao salvar cupom', {
        description: 'Já existe um cupom com este código.',
      }),
    );
    expect(within(dialog).getByLabelText(/^Valor \(%\)/)).toHaveValue('10');
  });

  it('Editar opens the coupon as saved, with its São Paulo days and its courses', async () => {
    api.fetchCoupons.mockResolvedValue([
      coupon({
        all_courses: false,
        course_ids: ['c1'],
        valid_from: '2026-11-01T03:00:00.000Z',
        valid_until: '2026-11-30T02:59:59.999Z',
        amount: 12.5,
      }),
    ]);
    api.saveCoupon.mockResolvedValue(undefined);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Editar BEMVINDO20' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Cupom' });
    expect(within(dialog).getByLabelText(/^Valor \(%\)/)).toHaveValue('12,5');
    expect(within(dialog).getByLabelText('Válido a partir de')).toHaveValue('2026-11-01');
    expect(within(dialog).getByLabelText('Válido até')).toHaveValue('2026-11-29');
    expect(within(dialog).getByRole('checkbox', { name: 'Excel Essencial' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() =>
      expect(api.saveCoupon).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ coupon: expect.objectContaining({ id: 'k1', course_ids: ['c1'] }) }),
      ),
    );
    expect(toast.success).toHaveBeenCalledWith('Cupom atualizado!');
  });

  it('Excluir deletes an unused coupon after asking; a used one is deactivated instead', async () => {
    api.fetchCoupons.mockResolvedValue([
      coupon({ id: 'k1', code: 'NOVO10', uses: 0, reserved: 0 }),
      coupon({ id: 'k2' }),
    ]);
    api.deleteCoupon.mockResolvedValue(undefined);
    api.setCouponActive.mockResolvedValue(undefined);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir NOVO10' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir cupom?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(api.deleteCoupon).toHaveBeenCalledWith(expect.anything(), 'k1'));
    expect(toast.success).toHaveBeenCalledWith('Cupom excluído!');

    await userEvent.click(screen.getByRole('button', { name: 'Excluir BEMVINDO20' }));
    const used = await screen.findByRole('alertdialog', { name: 'Este cupom já foi usado' });
    expect(used).toHaveTextContent('BEMVINDO20 tem 4 usos (contando os pendentes)');
    await userEvent.click(within(used).getByRole('button', { name: 'Desativar' }));
    await waitFor(() =>
      expect(api.setCouponActive).toHaveBeenCalledWith(expect.anything(), { id: 'k2', is_active: false }),
    );
    expect(api.deleteCoupon).toHaveBeenCalledTimes(1);
  });

  it('a failed read offers a retry', async () => {
    api.fetchCoupons
      .mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 }))
      .mockResolvedValue([coupon()]);
    open();
    expect(await screen.findByText('Não foi possível carregar os cupons')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('BEMVINDO20')).toBeInTheDocument();
  });
});
