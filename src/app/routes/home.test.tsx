// The student home as a student meets it, the network mocked at the features' api/queries.ts: the
// course cards and the "continue" card show the quiz states (issue 23).
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import HomePage from './home';

const courses = vi.hoisted(() => ({ fetchCatalog: vi.fn() }));
const announcements = vi.hoisted(() => ({ fetchActiveAnnouncements: vi.fn() }));
const quizzes = vi.hoisted(() => ({ fetchQuizStates: vi.fn() }));
vi.mock('@/lib/supabase', () => ({ supabase: {} }));
vi.mock('@/features/courses/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...courses }));
vi.mock('@/features/announcements/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...announcements }));
vi.mock('@/features/quizzes/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...quizzes }));

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
    [...Object.values(courses), ...Object.values(announcements), ...Object.values(quizzes)].forEach((f) => f.mockReset());
    announcements.fetchActiveAnnouncements.mockResolvedValue([]);
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
});
