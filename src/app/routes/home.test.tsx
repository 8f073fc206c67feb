// The student home as a student meets it, the network mocked at the features' api/queries.ts: the
// course cards and the "continue" card show the quiz states (issue 23); the school's plans are offered
// after the courses (issue 24).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import HomePage from './home';

const courses = vi.hoisted(() => ({ fetchCatalog: vi.fn() }));
const bell = vi.hoisted(() => ({ fetchBell: vi.fn() }));
const ranking = vi.hoisted(() => ({ fetchRanking: vi.fn(), dismissRankingNotice: vi.fn() }));
const quizzes = vi.hoisted(() => ({ fetchQuizStates: vi.fn() }));
const plans = vi.hoisted(() => ({ fetchPlanOffers: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/features/courses/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...courses }));
vi.mock('@/concepts/bell', async (importOriginal) => ({ ...(await importOriginal<object>()), ...bell }));
vi.mock('@/features/ranking/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...ranking }));
vi.mock('@/features/quizzes/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...quizzes }));
vi.mock('@/features/plans/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...plans }));

const course = (id: string, title: string, over: object = {}) => ({
  id,
  slug: id,
  title,
  description: null,
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  purchase_url: null,
  created_at: '2026-01-01T00:00:00Z',
  certificate_enabled: false,
  enrollment: { status: 'ACTIVE', expires_at: null },
  lesson_count: 4,
  completed_count: 1,
  first_preview_lesson_id: null,
  last_watched: null,
  ...over,
});
const row = { quiz_id: 'q', attempts_used: 0, max_attempts: 2, best_score: null, next_attempt_at: null };

describe('HomePage', () => {
  beforeEach(() => {
    [...Object.values(courses), ...Object.values(bell), ...Object.values(ranking), ...Object.values(quizzes), ...Object.values(plans)].forEach((f) => f.mockReset());
    bell.fetchBell.mockResolvedValue({ announcements: [], notifications: [], unread: 0 });
    ranking.fetchRanking.mockResolvedValue({ enabled: false, month: '2026-11-01', opted_out: false, weights: { lesson: 10, quiz: 30, answer: 20 }, top: [], me: null });
    plans.fetchPlanOffers.mockResolvedValue([]);
  });

  it("each enrolled course's card sums up its quizzes, and the lesson to continue shows its quiz state", async () => {
    courses.fetchCatalog.mockResolvedValue({
      courses: [
        course('c1', 'Excel Essencial', {
          last_watched: { lesson_id: 'l2', title: 'Prova final', duration_sec: 0, last_position_sec: 0, completed_at: null, updated_at: '2026-11-25T00:00:00Z' },
        }),
        course('c2', 'Word Básico'),
        course('c3', 'PowerPoint', { enrollment: null }),
      ],
      availableTotal: 1,
    });
    quizzes.fetchQuizStates.mockResolvedValue([
      { ...row, course_id: 'c1', lesson_id: 'l1', state: 'passed', attempts_used: 1 },
      { ...row, course_id: 'c1', lesson_id: 'l2', state: 'in_progress' },
      { ...row, course_id: 'c2', lesson_id: 'l9', state: 'passed', attempts_used: 1 },
    ]);
    renderScreen(<HomePage />, { session: signedIn() });
    const [excel, word] = await screen.findAllByTestId('course-card');
    expect(await within(excel!).findByTestId('quiz-summary')).toHaveTextContent('1 avaliação pendente · 1 em andamento');
    expect(within(word!).getByTestId('quiz-summary')).toHaveTextContent('Avaliação aprovada');
    expect(quizzes.fetchQuizStates).toHaveBeenCalledWith(expect.anything(), null);
    const continuing = screen.getByRole('region', { name: 'Continuar assistindo' });
    expect(within(continuing).getByTestId('quiz-state')).toHaveTextContent('Avaliação: Em andamento');
    // Not enrolled: nothing about quizzes.
    expect(screen.getAllByTestId('course-card')[2]).not.toHaveTextContent(/avalia/i);
  });

  it('offers each plan the student does not have: "Assine e tenha acesso a N cursos", a few titles, the price per cycle, Assinar', async () => {
    courses.fetchCatalog.mockResolvedValue({ courses: [course('c1', 'Excel Essencial'), course('c3', 'PowerPoint', { enrollment: null })], availableTotal: 1 });
    quizzes.fetchQuizStates.mockResolvedValue([]);
    plans.fetchPlanOffers.mockResolvedValue([
      { id: 'p1', slug: 'plano-completo', name: 'Plano Completo', description: null, cycle: 'MONTHLY', price: 49.9, courses: ['Excel Essencial', 'Marketing Digital', 'Oratória', 'PowerPoint', 'Word'] },
      { id: 'p2', slug: 'plano-anual', name: 'Plano Anual', description: null, cycle: 'YEARLY', price: 478.8, courses: ['Excel Essencial'] },
    ]);
    renderScreen(<HomePage />, { session: signedIn() });
    const section = await screen.findByRole('region', { name: 'Planos de assinatura' });
    expect(plans.fetchPlanOffers).toHaveBeenCalledWith(expect.anything(), 's1', 'u1');
    // After the courses for sale.
    const available = screen.getByRole('region', { name: 'Cursos Disponíveis' });
    expect(available.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const [monthly, yearly] = within(section).getAllByTestId('plan-offer');
    expect(within(monthly!).getByRole('heading', { name: 'Assine e tenha acesso a 5 cursos' })).toBeInTheDocument();
    expect(within(monthly!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Excel Essencial', 'Marketing Digital', 'Oratória', 'e mais 2 cursos']);
    expect(monthly).toHaveTextContent('R$ 49,90/mês');
    expect(within(monthly!).getByRole('link', { name: 'Assinar Plano Completo' })).toHaveAttribute('href', '/checkout/plano/plano-completo');
    expect(within(yearly!).getByRole('heading', { name: 'Assine e tenha acesso a 1 curso' })).toBeInTheDocument();
    expect(yearly).toHaveTextContent('R$ 478,80/ano');
    expect(within(yearly!).getByRole('link', { name: 'Assinar Plano Anual' })).toHaveAttribute('href', '/checkout/plano/plano-anual');
  });

  it('no plan on offer (none, or all subscribed): no section', async () => {
    courses.fetchCatalog.mockResolvedValue({ courses: [course('c1', 'Excel Essencial')], availableTotal: 0 });
    quizzes.fetchQuizStates.mockResolvedValue([]);
    renderScreen(<HomePage />, { session: signedIn() });
    expect(await screen.findByRole('region', { name: 'Meus Cursos' })).toBeInTheDocument();
    await waitFor(() => expect(plans.fetchPlanOffers).toHaveBeenCalled());
    expect(screen.queryByRole('region', { name: 'Planos de assinatura' })).not.toBeInTheDocument();
  });

  describe('Ranking (issue 26)', () => {
    const top = Array.from({ length: 10 }, (_, i) => ({
      position: i < 2 ? 1 : i + 1, // the first two tie
      user_id: i === 3 ? 'u1' : `p${i}`,
      name: i === 3 ? 'Ana Aluna' : `Pessoa ${i + 1}`,
      avatar_url: null,
      points: i < 2 ? 1200 : 200 - i * 10,
      lessons: 0,
      quizzes: 0,
      answers: 0,
    }));
    const on = { enabled: true, month: '2026-11-01', opted_out: false, weights: { lesson: 10, quiz: 30, answer: 20 }, top };

    beforeEach(() => {
      courses.fetchCatalog.mockResolvedValue({ courses: [course('c1', 'Excel Essencial')], availableTotal: 0 });
      quizzes.fetchQuizStates.mockResolvedValue([]);
    });

    it("on: the month's top 10 with positions, names and points, and the student's own position", async () => {
      ranking.fetchRanking.mockResolvedValue({ ...on, me: { position: 4, points: 170, lessons: 17, quizzes: 0, answers: 0 } });
      renderScreen(<HomePage />, { session: signedIn() });
      const card = await screen.findByRole('region', { name: 'Ranking' });
      expect(card).toHaveTextContent('Top 10 de novembro de 2026');
      const rows = within(within(card).getByRole('list', { name: 'Top 10 do mês' })).getAllByRole('listitem');
      const expected = [
        ['1º', 'Pessoa 1', '1.200 pontos'],
        ['1º', 'Pessoa 2', '1.200 pontos'],
        ['3º', 'Pessoa 3', '180 pontos'],
        ['4º', 'Ana Aluna (você)', '170 pontos'],
        ['5º', 'Pessoa 5', '160 pontos'],
        ['6º', 'Pessoa 6', '150 pontos'],
        ['7º', 'Pessoa 7', '140 pontos'],
        ['8º', 'Pessoa 8', '130 pontos'],
        ['9º', 'Pessoa 9', '120 pontos'],
        ['10º', 'Pessoa 10', '110 pontos'],
      ];
      expect(rows).toHaveLength(10);
      rows.forEach((row, i) => {
        const [position, name, points] = expected[i]!;
        expect(within(row).getByText(position!)).toBeInTheDocument();
        expect(within(row).getAllByText((_, el) => el?.tagName === 'SPAN' && el.textContent === name).length).toBeGreaterThan(0);
        expect(within(row).getByText(points!)).toBeInTheDocument();
      });
      expect(within(card).getByTestId('ranking-own')).toHaveTextContent('Sua posição: 4º · 170 pontos');
      expect(ranking.fetchRanking).toHaveBeenCalledWith(expect.anything(), 's1');
    });

    it('on, without points yet or opted out: a line saying so instead of a position', async () => {
      ranking.fetchRanking.mockResolvedValue({ ...on, top: [], me: { position: null, points: 0, lessons: 0, quizzes: 0, answers: 0 } });
      const { unmount } = renderScreen(<HomePage />, { session: signedIn() });
      let card = await screen.findByRole('region', { name: 'Ranking' });
      expect(card).toHaveTextContent('Ninguém pontuou este mês ainda.');
      expect(within(card).getByTestId('ranking-own')).toHaveTextContent('Você ainda não tem pontos este mês: conclua aulas para entrar no ranking.');
      unmount();

      // Opted out: the database leaves them out of the top 10 and gives no position.
      ranking.fetchRanking.mockResolvedValue({ ...on, opted_out: true, me: null, top: top.map((e) => (e.user_id === 'u1' ? { ...e, user_id: 'p3', name: 'Pessoa 4' } : e)) });
      renderScreen(<HomePage />, { session: signedIn() });
      card = await screen.findByRole('region', { name: 'Ranking' });
      expect(within(card).getAllByRole('listitem')).toHaveLength(10);
      expect(within(card).queryByText(/você\)/)).not.toBeInTheDocument();
      expect(within(card).getByTestId('ranking-own')).toHaveTextContent('Você escolheu não aparecer no ranking.');
    });

    it('off: no card at all', async () => {
      renderScreen(<HomePage />, { session: signedIn() });
      expect(await screen.findByRole('region', { name: 'Meus Cursos' })).toBeInTheDocument();
      await waitFor(() => expect(ranking.fetchRanking).toHaveBeenCalled());
      expect(screen.queryByRole('region', { name: 'Ranking' })).not.toBeInTheDocument();
      expect(screen.queryByText(/Sua posição/)).not.toBeInTheDocument();
    });
  });

  describe('a first visit (issue 46)', () => {
    const top = [
      { position: 1, user_id: 'p1', name: 'Mariana S.', avatar_url: null, points: 40, lessons: 4, quizzes: 0, answers: 0 },
      { position: 2, user_id: 'p2', name: 'José C.', avatar_url: null, points: 10, lessons: 1, quizzes: 0, answers: 0 },
    ];
    const on = { enabled: true, month: '2026-11-01', opted_out: false, weights: { lesson: 10, quiz: 30, answer: 20 }, top };

    it('a student with no course and nothing done is greeted, shown where to start, and the ranking comes after the courses for sale', async () => {
      courses.fetchCatalog.mockResolvedValue({ courses: [course('c3', 'PowerPoint', { enrollment: null, completed_count: 0 }), course('c4', 'Word', { enrollment: null, completed_count: 0 })], availableTotal: 2 });
      ranking.fetchRanking.mockResolvedValue({ ...on, me: { position: null, points: 0, lessons: 0, quizzes: 0, answers: 0, notice: false } });
      renderScreen(<HomePage />, { session: signedIn() });
      expect(await screen.findByRole('heading', { level: 1, name: 'Boas-vindas, Ana!' })).toBeInTheDocument();
      expect(screen.getByText('Que bom ter você aqui. Escolha um curso e comece a aprender.')).toBeInTheDocument();
      expect(screen.queryByText('Bem-vindo de volta')).not.toBeInTheDocument();
      expect(screen.queryByText(/aulas completas/)).not.toBeInTheDocument();
      const start = screen.getByRole('region', { name: 'Comece por aqui' });
      expect(within(start).getByRole('link', { name: 'Ver cursos disponíveis' })).toHaveAttribute('href', '#cursos-disponiveis');
      const card = await screen.findByRole('region', { name: 'Ranking' });
      const forSale = screen.getByRole('region', { name: 'Cursos Disponíveis' });
      expect(forSale.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    });

    it("a returning student reads the SPEC's words exactly", async () => {
      courses.fetchCatalog.mockResolvedValue({ courses: [course('c1', 'Excel Essencial', { completed_count: 1 })], availableTotal: 0 });
      quizzes.fetchQuizStates.mockResolvedValue([]);
      renderScreen(<HomePage />, { session: signedIn() });
      expect(await screen.findByRole('heading', { level: 1, name: 'Bem-vindo de volta' })).toBeInTheDocument();
      expect(screen.getByText('Continue sua jornada de aprendizado')).toBeInTheDocument();
      expect(screen.getByText('Olá, Ana!')).toBeInTheDocument();
      expect(await screen.findByTestId('overall-progress')).toHaveTextContent('1 de 4 aulas completas');
    });

    it('enrolled but nothing watched yet: greeted too; its progress counts its lessons', async () => {
      courses.fetchCatalog.mockResolvedValue({ courses: [course('c1', 'Excel Essencial', { completed_count: 0 })], availableTotal: 0 });
      quizzes.fetchQuizStates.mockResolvedValue([]);
      renderScreen(<HomePage />, { session: signedIn() });
      expect(await screen.findByRole('heading', { level: 1, name: 'Boas-vindas, Ana!' })).toBeInTheDocument();
      expect(screen.getByTestId('overall-progress')).toHaveTextContent('0 de 4 aulas completas');
    });

    it('the first time a student appears in the ranking, it says how classmates see them and where to hide; Entendi dismisses it', async () => {
      courses.fetchCatalog.mockResolvedValue({ courses: [course('c1', 'Excel Essencial')], availableTotal: 0 });
      quizzes.fetchQuizStates.mockResolvedValue([]);
      ranking.fetchRanking.mockResolvedValue({ ...on, top: [...top, { ...top[1]!, position: 3, user_id: 'u1', name: 'Ana A.' }], me: { position: 3, points: 10, lessons: 1, quizzes: 0, answers: 0, notice: true } });
      ranking.dismissRankingNotice.mockResolvedValue(undefined);
      renderScreen(<HomePage />, { session: signedIn() });
      const card = await screen.findByRole('region', { name: 'Ranking' });
      const notice = within(card).getByTestId('ranking-notice');
      expect(notice).toHaveTextContent('Você entrou no ranking do mês! Seus colegas veem seu primeiro nome com a inicial do sobrenome (Ana A.), sua foto e seus pontos.');
      expect(notice).toHaveTextContent('Se preferir não aparecer, desligue “Aparecer no ranking da escola” em Meu Perfil.');
      expect(within(notice).getByRole('link', { name: 'Ir para Meu Perfil' })).toHaveAttribute('href', '/profile#ranking');

      ranking.fetchRanking.mockResolvedValue({ ...on, me: { position: 3, points: 10, lessons: 1, quizzes: 0, answers: 0, notice: false } });
      await userEvent.click(within(notice).getByRole('button', { name: 'Entendi' }));
      expect(ranking.dismissRankingNotice).toHaveBeenCalledWith(expect.anything(), 'u1');
      await waitFor(() => expect(within(card).queryByTestId('ranking-notice')).not.toBeInTheDocument());
    });
  });
});
