// TanStack Query over the staff's "Comentários" (admin-queries.ts). Keys, under discussionKeys.admin():
//   ['discussions', 'admin', 'list', schoolId, filter, courseId, search, page]   one page of the list
//   ['discussions', 'admin', 'counts', schoolId]                                  unanswered / pending / hidden
// The row actions are the lesson page's hooks (hooks.ts); each of them marks these keys stale.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/platform/supabase';
import { discussionKeys } from './hooks';
import { fetchAdminCommentCounts, fetchAdminComments, type AdminCommentFilters } from './admin-queries';

export const adminCommentKeys = {
  list: (schoolId: string, f: AdminCommentFilters, page: number) =>
    [...discussionKeys.admin(), 'list', schoolId, f.filter, f.courseId, f.turmaId, f.search, page] as const,
  counts: (schoolId: string) => [...discussionKeys.admin(), 'counts', schoolId] as const,
};

export function useAdminComments(schoolId: string, filters: AdminCommentFilters, page: number) {
  return useQuery({
    queryKey: adminCommentKeys.list(schoolId, filters, page),
    queryFn: () => fetchAdminComments(supabase, { schoolId, filters, page }),
    placeholderData: keepPreviousData,
  });
}

export const adminCommentCountsQuery = (schoolId: string) =>
  queryOptions({
    queryKey: adminCommentKeys.counts(schoolId),
    queryFn: () => fetchAdminCommentCounts(supabase, schoolId),
    staleTime: 60_000,
  });

/** The sidebar's badge: without a school (a super admin not tied to one) there is nothing to count. */
export function useAdminCommentCounts(schoolId: string | null | undefined) {
  return useQuery({ ...adminCommentCountsQuery(schoolId ?? ''), enabled: !!schoolId });
}
