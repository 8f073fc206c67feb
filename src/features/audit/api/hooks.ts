// TanStack Query over Registro de atividades (queries.ts). Keys, under rootKeys.audit:
//   ['audit', 'list', schoolId, filters…, page]   one page of the log (schoolId 'all': every school)
//   ['audit', 'actors', schoolId]                  the people in it, for the "Pessoa" filter
// The log only grows, by the database's triggers: nothing here writes it.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { downloadCsv } from '@/utils/csv';
import { formatDateTime } from '@/utils/format';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { auditCsv } from '../lib/csv';
import { fetchAllAuditLog, fetchAuditActors, fetchAuditLog, type AuditFilters } from './queries';

export const auditKeys = {
  all: rootKeys.audit,
  list: (schoolId: string | null, f: AuditFilters, page: number) =>
    [...auditKeys.all, 'list', schoolId ?? 'all', f.actorId, f.table, f.action, f.from, f.to, page] as const,
  actors: (schoolId: string | null) => [...auditKeys.all, 'actors', schoolId ?? 'all'] as const,
};

export function useAuditLog(schoolId: string | null, filters: AuditFilters, page: number) {
  return useQuery({
    queryKey: auditKeys.list(schoolId, filters, page),
    queryFn: () => fetchAuditLog(supabase, { schoolId, filters, page }),
    placeholderData: keepPreviousData,
  });
}

export function useAuditActors(schoolId: string | null) {
  return useQuery({ queryKey: auditKeys.actors(schoolId), queryFn: () => fetchAuditActors(supabase, schoolId) });
}

/** "Exportar CSV": every entry of the filters (not just the page shown), as `registro-de-atividades-{aaaa-mm-dd}.csv`. */
export function useExportAuditLog() {
  return useMutation({
    mutationFn: async (what: { schoolId: string | null; filters: AuditFilters }) =>
      downloadCsv(
        `registro-de-atividades-${new Date().toISOString().slice(0, 10)}.csv`,
        await auditCsv(await fetchAllAuditLog(supabase, what), formatDateTime),
      ),
    meta: { errorTitle: 'Erro ao exportar' },
  });
}
