// Vendas' filters as the URL holds them (useListParams): ?situacao=CONFIRMED&forma=PIX&curso=…&de=2026-11-01&ate=2026-11-30.
import { SALE_METHODS, SALE_STATUSES, type SalesFilters } from '../api/queries';
import type { CourseOption } from '@/concepts/course-filter';

export const FILTER_PARAMS = { status: 'situacao', method: 'forma', courseId: 'curso', from: 'de', to: 'ate' } as const satisfies Record<keyof SalesFilters, string>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters the URL holds, each checked (an unknown value is "any"). */
export function filtersOf(param: (name: string) => string, courses: CourseOption[]): SalesFilters {
  const day = (v: string) => (DAY.test(v) ? v : '');
  return {
    status: SALE_STATUSES.find((s) => s === param(FILTER_PARAMS.status)) ?? '',
    method: SALE_METHODS.find((m) => m === param(FILTER_PARAMS.method)) ?? '',
    courseId: courses.some((c) => c.id === param(FILTER_PARAMS.courseId)) ? param(FILTER_PARAMS.courseId) : '',
    from: day(param(FILTER_PARAMS.from)),
    to: day(param(FILTER_PARAMS.to)),
  };
}
