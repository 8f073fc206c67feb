// Recuperação's filters as the URL holds them (useListParams): ?etapa=abandoned&curso=…&de=2026-11-01&ate=2026-11-30.
import { SESSION_OUTCOMES, SESSION_STAGES, type RecoveryFilters } from '../api/queries';
import type { CourseOption } from '@/concepts/course-filter';

export const FILTER_PARAMS = { stage: 'etapa', courseId: 'curso', from: 'de', to: 'ate' } as const satisfies Record<
  keyof RecoveryFilters,
  string
>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters the URL holds, each checked (an unknown value is "any"). */
export function filtersOf(param: (name: string) => string, courses: CourseOption[]): RecoveryFilters {
  const day = (v: string) => (DAY.test(v) ? v : '');
  const stage = param(FILTER_PARAMS.stage);
  return {
    stage: SESSION_OUTCOMES.find((o) => o === stage) ?? SESSION_STAGES.find((s) => s === stage) ?? '',
    courseId: courses.some((c) => c.id === param(FILTER_PARAMS.courseId)) ? param(FILTER_PARAMS.courseId) : '',
    from: day(param(FILTER_PARAMS.from)),
    to: day(param(FILTER_PARAMS.to)),
  };
}
