import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { fetchAllIssuedCertificates, fetchIssuedCertificates } from './certificates';
import { fetchReportStudents, fetchReportSummary, type ReportTab } from './queries';
import { rootKeys } from '@/lib/query-keys';

export const reportKeys = {
  all: rootKeys.reports,
  summary: (schoolId: string, courseId: string | null) => [...rootKeys.reports, 'summary', schoolId, courseId] as const,
  tab: (schoolId: string, tab: ReportTab, courseId: string | null, page: number) => [...rootKeys.reports, 'tab', schoolId, tab, courseId, page] as const,
  certificates: (schoolId: string, courseId: string | null, page: number) => [...rootKeys.reports, 'certificates', schoolId, courseId, page] as const,
};

export function useReportSummary(schoolId: string, courseId: string | null) {
  return useQuery({
    queryKey: reportKeys.summary(schoolId, courseId),
    queryFn: () =>
      fetchReportSummary(supabase, schoolId, courseId).catch((error: unknown) => {
        // SPEC §8: report fetch failures are only logged.
        console.error('Erro ao carregar relatório', error);
        throw error;
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useReportTab(schoolId: string, tab: ReportTab, courseId: string | null, page: number) {
  return useQuery({
    queryKey: reportKeys.tab(schoolId, tab, courseId, page),
    queryFn: () =>
      fetchReportStudents(supabase, schoolId, tab, courseId, page).catch((error: unknown) => {
        console.error('Erro ao carregar relatório', error);
        throw error;
      }),
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

/** Every certificate of the filter, for 'Exportar CSV'. */
export function fetchCertificatesForExport(schoolId: string, courseId: string | null) {
  return fetchAllIssuedCertificates(supabase, { schoolId, courseId });
}

/** Every student of a tab, for 'Exportar CSV'. */
export function fetchReportForExport(schoolId: string, tab: ReportTab, courseId: string | null) {
  return fetchReportStudents(supabase, schoolId, tab, courseId, 0, null).then((page) => page.rows);
}
