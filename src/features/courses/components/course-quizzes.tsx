// The course page's "Avaliações" (issue 23): the course's quiz lessons with the student's state.
import { Link } from 'react-router-dom';
import { ChevronRight, ClipboardCheck } from 'lucide-react';
import { QuizStateBadge } from '@/concepts/quiz-state-badge';
import { stateOfRow, type QuizStateRow } from '@/concepts/quiz-state';
import { availableOnText } from '@/concepts/release';
import type { CourseDetail } from '../api/queries';

/** The course's quizzes in outline order, each with the student's state (issue 23): a quiz lesson
 * completes, and the certificate comes, only when its quiz is passed. */
export function CourseQuizzes({
  course,
  states,
  locks = new Map(),
}: {
  course: CourseDetail;
  /** my_quiz_states of this course, by lesson. */
  states: ReadonlyMap<string, QuizStateRow>;
  locks?: ReadonlyMap<string, Date>;
}) {
  const items = course.modules.flatMap((m, i) => m.lessons.filter((l) => states.has(l.id)).map((l) => ({ lesson: l, module: m, number: i + 1 })));
  if (items.length === 0) return null;
  const passed = items.filter((x) => states.get(x.lesson.id)!.state === 'passed').length;
  return (
    <section aria-labelledby="avaliacoes" className="grid gap-3" data-testid="course-quizzes">
      <div>
        <h2 id="avaliacoes" className="text-xl font-bold tracking-tight">
          Avaliações
        </h2>
        <p className="text-sm text-muted-foreground">
          {passed} de {items.length} {items.length === 1 ? 'aprovada' : 'aprovadas'} · seja aprovado em todas para concluir o curso
        </p>
      </div>
      <ul className="divide-y divide-border overflow-hidden rounded-2xl border border-border bg-white shadow-sm">
        {items.map(({ lesson, module, number }) => {
          const release = locks.get(module.id);
          const state = stateOfRow(states.get(lesson.id)!);
          const body = (
            <>
              <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                <ClipboardCheck className="size-4" aria-hidden="true" />
              </span>
              <span className="grid min-w-0 flex-1 gap-1">
                <span className="truncate text-sm font-semibold">{lesson.title}</span>
                <span className="text-xs text-muted-foreground">
                  Módulo {number} · {module.title}
                </span>
                <span className="flex flex-wrap items-center gap-2">
                  <QuizStateBadge value={state} className="whitespace-normal" />
                  {release && <span className="text-xs font-medium text-amber-800">{availableOnText(release)}</span>}
                </span>
              </span>
            </>
          );
          return (
            <li key={lesson.id} data-testid="course-quiz">
              {release && !lesson.is_preview ? (
                <div className="flex items-center gap-3 p-4 opacity-80">{body}</div>
              ) : (
                <Link to={`/course/${course.id}/lesson/${lesson.id}`} className="flex items-center gap-3 p-4 transition-colors hover:bg-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary">
                  {body}
                  <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
