import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Check, ChevronDown, ClipboardCheck, Lock, PlayCircle } from 'lucide-react';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { QuizStateBadge } from '@/concepts/quiz-state-badge';
import { minutesFromSeconds } from '@/utils/format';
import { quizStateLabel, stateOfRow, type QuizStateRow } from '@/concepts/quiz-state';
import { availableOnText } from '@/concepts/release';
import { cn } from '@/utils/cn';

export interface SidebarLesson {
  id: string;
  title: string;
  duration_sec: number;
  is_preview: boolean;
}

export interface SidebarModule {
  id: string;
  title: string;
  lessons: readonly SidebarLesson[];
}

export interface LessonSidebarProps {
  courseId: string;
  modules: readonly SidebarModule[];
  currentLessonId: string;
  completedIds: ReadonlySet<string>;
  /** The student has access to the whole course (active enrollment, or staff). Without it only the
   * is_preview lessons can be opened and completed: the others show a lock, previews a 'Grátis' label. */
  hasAccess: boolean;
  /** Modules not released yet for this student (drip release), with their release moment: their
   * lessons show a lock (previews stay open) and the module 'Disponível em dd/mm/aaaa'. */
  locks?: ReadonlyMap<string, Date>;
  /** The student's state in each quiz lesson (my_quiz_states, by lesson): such a lesson completes only
   * when its quiz is passed, so it shows its state instead of a check to click. */
  quizStates?: ReadonlyMap<string, QuizStateRow>;
  onComplete: (lessonId: string) => void;
}

function ModuleGroup({
  module,
  number,
  courseId,
  currentLessonId,
  completedIds,
  hasAccess,
  locks,
  quizStates,
  onComplete,
}: Omit<LessonSidebarProps, 'modules'> & { module: SidebarModule; number: number }) {
  const lockedUntil = locks?.get(module.id);
  const containsCurrent = module.lessons.some((l) => l.id === currentLessonId);
  const [open, setOpen] = useState(containsCurrent);
  const done = module.lessons.filter((l) => completedIds.has(l.id)).length;
  return (
    <Collapsible open={open} onOpenChange={setOpen} className="border-b border-white/10 last:border-b-0">
      <CollapsibleTrigger className="flex w-full cursor-pointer items-center gap-3 px-4 py-3 text-left transition-colors hover:bg-white/5">
        <span className="min-w-0 flex-1">
          <span className="block text-xs font-medium text-slate-400">Módulo {number}</span>
          <span className="block truncate text-sm font-semibold text-slate-100">{module.title}</span>
          <span className="text-xs text-slate-400">
            {done}/{module.lessons.length} aulas
          </span>
          {lockedUntil && (
            <span className="flex items-center gap-1 text-xs font-medium text-amber-300" data-testid="module-release">
              <Lock className="size-3 shrink-0" aria-hidden="true" />
              {availableOnText(lockedUntil)}
            </span>
          )}
        </span>
        <ChevronDown className={cn('size-4 shrink-0 text-slate-400 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </CollapsibleTrigger>
      <CollapsibleContent>
        <ul className="pb-2">
          {module.lessons.map((lesson) => {
            const completed = completedIds.has(lesson.id);
            const current = lesson.id === currentLessonId;
            // As the backend decides (has_lesson_access): the whole course once its module is released,
            // or only its preview lessons.
            const unlocked = (hasAccess && !lockedUntil) || lesson.is_preview;
            const quiz = quizStates?.get(lesson.id);
            return (
              <li key={lesson.id} className={cn('flex items-center gap-2 px-3 py-1.5', current && 'bg-primary/15')}>
                {unlocked && quiz && !completed ? (
                  <span
                    role="img"
                    aria-label={`Avaliação: ${quizStateLabel(stateOfRow(quiz))}`}
                    title="Concluída quando você for aprovado na avaliação"
                    className="flex size-5 shrink-0 items-center justify-center rounded-full border border-dashed border-slate-500 text-slate-300"
                  >
                    <ClipboardCheck className="size-3" aria-hidden="true" />
                  </span>
                ) : unlocked ? (
                  <button
                    type="button"
                    role="checkbox"
                    aria-checked={completed}
                    aria-label={completed ? `${lesson.title}: concluída` : `Marcar "${lesson.title}" como concluída`}
                    disabled={completed}
                    onClick={() => onComplete(lesson.id)}
                    className={cn(
                      'flex size-5 shrink-0 cursor-pointer items-center justify-center rounded-full border transition-colors disabled:cursor-default',
                      completed ? 'border-green-500 bg-green-500 text-white' : 'border-slate-500 hover:border-primary hover:bg-primary/20',
                    )}
                  >
                    {completed && <Check className="size-3.5" strokeWidth={3} aria-hidden="true" />}
                  </button>
                ) : (
                  <span
                    role="img"
                    aria-label={lockedUntil ? 'Aula ainda não liberada' : 'Aula bloqueada'}
                    title={lockedUntil ? 'Aula ainda não liberada' : 'Aula bloqueada'}
                    className="flex size-5 shrink-0 items-center justify-center text-slate-400">
                    <Lock className="size-3.5" aria-hidden="true" />
                  </span>
                )}
                <Link
                  to={`/course/${courseId}/lesson/${lesson.id}`}
                  aria-current={current ? 'page' : undefined}
                  className={cn(
                    'flex min-w-0 flex-1 items-center gap-2 rounded px-1 py-1 text-sm transition-colors hover:text-white',
                    current ? 'font-semibold text-white' : unlocked ? 'text-slate-300' : 'text-slate-400',
                  )}
                >
                  {current && <PlayCircle className="size-4 shrink-0 text-primary-on-dark" aria-hidden="true" />}
                  <span className="min-w-0 flex-1">
                    <span className="block truncate">{lesson.title}</span>
                    {/* The lesson open beside it says its quiz's state itself (issue 46). */}
                    {quiz && unlocked && !current && <QuizStateBadge tone="dark" value={stateOfRow(quiz)} className="mt-0.5 font-normal" />}
                  </span>
                  {!hasAccess && lesson.is_preview && (
                    <span className="shrink-0 rounded-full bg-emerald-500/15 px-2 py-0.5 text-[11px] font-medium text-emerald-300 ring-1 ring-emerald-400/30">Grátis</span>
                  )}
                  <span className="shrink-0 text-xs text-slate-400">{minutesFromSeconds(lesson.duration_sec)} min</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </CollapsibleContent>
    </Collapsible>
  );
}

/** Desktop side panel: 'Ver todos os módulos', collapsible modules, a check per lesson the student can
 * complete, and for a student without access a lock on the other lessons and 'Grátis' on previews. */
export function LessonSidebar(props: LessonSidebarProps) {
  return (
    <aside aria-labelledby="todos-modulos" className="overflow-hidden rounded-xl border border-white/10 bg-slate-900/80">
      <h2 id="todos-modulos" className="border-b border-white/10 px-4 py-3 text-sm font-semibold text-white">
        Ver todos os módulos
      </h2>
      <div className="max-h-[calc(100dvh-9rem)] overflow-y-auto">
        {props.modules.map((m, i) => (
          <ModuleGroup key={m.id} module={m} number={i + 1} {...props} />
        ))}
      </div>
    </aside>
  );
}
