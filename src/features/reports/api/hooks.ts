// TanStack Query over the reports (queries.ts). Keys, under rootKeys.reports:
//   ['reports', 'summary', schoolId, courseId]              the six numbers
//   ['reports', 'tab', schoolId, tab, courseId, page]       one page of a students tab
//   ['reports', 'certificates', schoolId, courseId, page]   one page of the issued certificates
//   ['reports', 'quizzes', schoolId, courseId, page]        one page of the quiz results (Avaliações)
//   ['reports', 'lessons', courseId, 'funnel' | 'retention' | 'engagement']   per lesson of a course (issue 25)
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { downloadCsv } from '@/utils/csv';
import { verificationUrl } from '@/concepts/certificates';
import { formatDate } from '@/utils/format';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { certificatesCsv, quizReportCsv, reportCsv } from '../lib/csv';
import {
  fetchAllIssuedCertificates,
  fetchAllQuizReport,
  fetchCourseFunnel,
  fetchIssuedCertificates,
  fetchLessonEngagement,
  fetchQuizReport,
  fetchReportStudents,
  fetchReportSummary,
  fetchVideoRetention,
  REPORT_PAGE_SIZE,
  type ReportTab,
} from './queries';

export const reportKeys = {
  all: rootKeys.reports,
  summary: (schoolId: string, courseId: string | null, turmaId: string | null = null) => [...reportKeys.all, 'summary', schoolId, courseId, turmaId] as const,
  tab: (schoolId: string, tab: ReportTab, courseId: string | null, page: number, turmaId: string | null = null) =>
    [...reportKeys.all, 'tab', schoolId, tab, courseId, turmaId, page] as const,
  certificates: (schoolId: string, courseId: string | null, page: number) => [...reportKeys.all, 'certificates', schoolId, courseId, page] as const,
  quizzes: (schoolId: string, courseId: string | null, page: number) => [...reportKeys.all, 'quizzes', schoolId, courseId, page] as const,
  lessons: (courseId: string, chart: 'funnel' | 'retention' | 'engagement', turmaId: string | null = null) =>
    [...reportKeys.all, 'lessons', courseId, chart, turmaId] as const,
};

/** SPEC §8: a failed report read is only logged (the screen shows '—' or LoadError, no toast). */
function logged<T>(read: Promise<T>): Promise<T> {
  return read.catch((error: unknown) => {
    console.error('Erro ao carregar relatório', error);
    throw error;
  });
}

export function useReportSummary(schoolId: string, courseId: string | null, turmaId: string | null = null) {
  return useQuery({
    queryKey: reportKeys.summary(schoolId, courseId, turmaId),
    queryFn: () => logged(fetchReportSummary(supabase, schoolId, courseId, turmaId)),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useReportTab(schoolId: string, tab: ReportTab, courseId: string | null, page: number, turmaId: string | null = null) {
  return useQuery({
    queryKey: reportKeys.tab(schoolId, tab, courseId, page, turmaId),
    queryFn: () => logged(fetchReportStudents(supabase, schoolId, tab, courseId, page, REPORT_PAGE_SIZE, turmaId)),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** 'Certificados emitidos' (issue 14): one page of the school's issued certificates. */
export function useIssuedCertificates(schoolId: string, courseId: string | null, page: number) {
  return useQuery({
    queryKey: reportKeys.certificates(schoolId, courseId, page),
    queryFn: () => fetchIssuedCertificates(supabase, { schoolId, courseId, page }),
    placeholderData: keepPreviousData,
  });
}

/** 'Avaliações' (issue 23): one page of the students' results in the school's quizzes. */
export function useQuizReport(schoolId: string, courseId: string | null, page: number) {
  return useQuery({
    queryKey: reportKeys.quizzes(schoolId, courseId, page),
    queryFn: () => logged(fetchQuizReport(supabase, { schoolId, courseId, page })),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** 'Funil de conclusão' (issue 25): per lesson of the course, the enrolled students who started and completed it. */
export function useCourseFunnel(courseId: string, turmaId: string | null = null) {
  return useQuery({
    queryKey: reportKeys.lessons(courseId, 'funnel', turmaId),
    queryFn: () => logged(fetchCourseFunnel(supabase, courseId, turmaId)),
    retry: false,
  });
}

/** 'Retenção de vídeo' (issue 25): per lesson with a video, the viewers who reached 25 / 50 / 75 / 90% of it. */
export function useVideoRetention(courseId: string) {
  return useQuery({ queryKey: reportKeys.lessons(courseId, 'retention'), queryFn: () => logged(fetchVideoRetention(supabase, courseId)), retry: false });
}

/** Average rating and comments per lesson (issue 25). */
export function useLessonEngagement(courseId: string) {
  return useQuery({ queryKey: reportKeys.lessons(courseId, 'engagement'), queryFn: () => logged(fetchLessonEngagement(supabase, courseId)), retry: false });
}

/** What 'Exportar CSV' downloads: a table's every row (not just the page shown). */
export type CsvExport =
  | { kind: 'students'; schoolId: string; tab: ReportTab; courseId: string | null; turmaId?: string | null }
  | { kind: 'certificates'; schoolId: string; courseId: string | null }
  | { kind: 'quizzes'; schoolId: string; courseId: string | null };

async function buildCsv(what: CsvExport): Promise<string> {
  if (what.kind === 'certificates') {
    const rows = await fetchAllIssuedCertificates(supabase, what);
    return certificatesCsv(rows, formatDate, (code) => verificationUrl(window.location.origin, code));
  }
  if (what.kind === 'quizzes') return quizReportCsv(await fetchAllQuizReport(supabase, what), formatDate);
  const { rows } = await fetchReportStudents(supabase, what.schoolId, what.tab, what.courseId, 0, null, what.turmaId ?? null);
  return reportCsv(rows, formatDate);
}

/** 'Exportar CSV': builds the file and downloads it as `{fileName}-{yyyy-mm-dd}.csv`. */
export function useExportCsv(fileName: string) {
  return useMutation({
    mutationFn: async (what: CsvExport) => downloadCsv(`${fileName}-${new Date().toISOString().slice(0, 10)}.csv`, await buildCsv(what)),
    meta: { errorTitle: 'Erro ao exportar' },
  });
}
