// The staff's "Comentários" screen (issue 26, docs/discussions.md "RPCs"): every comment of the school,
// newest first, one page at a time with the filter's total (admin_comments), and the sidebar's counts
// (admin_comment_counts). The actions on a row are the lesson page's: queries.ts (addComment for
// "Responder", hideComment, unhideComment, markCommentAnswer, approveComment, deleteComment).
import type { DbClient, Page } from '@/platform/db';
import type { AuthorRole } from './queries';

/** The RPC's filters: `all`, unanswered questions, comments waiting for approval, hidden ones. */
export const ADMIN_COMMENT_FILTERS = ['all', 'unanswered', 'pending', 'hidden'] as const;
export type AdminCommentFilter = (typeof ADMIN_COMMENT_FILTERS)[number];

export interface AdminCommentFilters {
  filter: AdminCommentFilter;
  courseId: string;
  /** A turma of the chosen course ("Discussões por turma", issue 40); '' for every comment. */
  turmaId: string;
  search: string;
}

export interface AdminComment {
  id: string;
  parent_id: string | null;
  course_id: string;
  course_title: string;
  lesson_id: string;
  lesson_title: string;
  user_id: string;
  author_name: string;
  author_avatar_url: string | null;
  author_role: AuthorRole | null;
  comment: string;
  status: 'published' | 'pending';
  created_at: string;
  edited_at: string | null;
  hidden_at: string | null;
  /** Why staff hid it (staff only), and who did. */
  hidden_reason: string | null;
  hidden_by_name: string | null;
  marked_answer_at: string | null;
  /** For a reply: its question's author and text. */
  parent_author_name: string | null;
  parent_comment: string | null;
  reply_count: number;
  /** For a student's question: a visible staff reply or a marked answer exists. null for anything else. */
  answered: boolean | null;
  /** The turma it was written in ("Discussões por turma"); null: course-wide. */
  turma_name: string | null;
}

export interface AdminCommentCounts {
  unanswered: number;
  pending: number;
  hidden: number;
}

export const ADMIN_COMMENTS_PAGE_SIZE = 20;

function toAdminComment(r: Record<string, unknown>): AdminComment {
  return {
    id: String(r.id),
    parent_id: (r.parent_id as string | null) ?? null,
    course_id: String(r.course_id),
    course_title: (r.course_title as string | null) ?? '',
    lesson_id: String(r.lesson_id),
    lesson_title: (r.lesson_title as string | null) ?? '',
    user_id: String(r.user_id),
    author_name: (r.author_name as string | null) || 'Aluno',
    author_avatar_url: (r.author_avatar_url as string | null) ?? null,
    author_role: (r.author_role as AuthorRole | null) ?? null,
    comment: (r.comment as string | null) ?? '',
    status: r.status === 'pending' ? 'pending' : 'published',
    created_at: String(r.created_at),
    edited_at: (r.edited_at as string | null) ?? null,
    hidden_at: (r.hidden_at as string | null) ?? null,
    hidden_reason: (r.hidden_reason as string | null) ?? null,
    hidden_by_name: (r.hidden_by_name as string | null) ?? null,
    marked_answer_at: (r.marked_answer_at as string | null) ?? null,
    parent_author_name: (r.parent_author_name as string | null) ?? null,
    parent_comment: (r.parent_comment as string | null) ?? null,
    reply_count: Number(r.reply_count ?? 0),
    answered: typeof r.answered === 'boolean' ? r.answered : null,
    turma_name: (r.turma_name as string | null) ?? null,
  };
}

/** One page of the school's comments under the filters, newest first, with the filter's total. */
export async function fetchAdminComments(
  client: DbClient,
  {
    schoolId,
    filters,
    page,
    pageSize = ADMIN_COMMENTS_PAGE_SIZE,
  }: { schoolId: string; filters: AdminCommentFilters; page: number; pageSize?: number },
): Promise<Page<AdminComment>> {
  const { data, error } = await client.rpc('admin_comments', {
    p_school_id: schoolId,
    p_filter: filters.filter,
    p_course_id: filters.courseId || null,
    p_search: filters.search.trim() || null,
    p_limit: pageSize,
    p_offset: page * pageSize,
    p_turma_id: filters.turmaId || null,
  });
  if (error) throw error;
  const rows = (data ?? []) as Record<string, unknown>[];
  return { total: rows.length ? Number(rows[0]!.total_count) : 0, rows: rows.map(toAdminComment) };
}

/** The sidebar's badge (unanswered questions) and the filters' counts. */
export async function fetchAdminCommentCounts(client: DbClient, schoolId: string): Promise<AdminCommentCounts> {
  const { data, error } = await client.rpc('admin_comment_counts', { p_school_id: schoolId }).single();
  if (error) throw error;
  const r = (data ?? {}) as Partial<Record<keyof AdminCommentCounts, number | null>>;
  return { unanswered: Number(r.unanswered ?? 0), pending: Number(r.pending ?? 0), hidden: Number(r.hidden ?? 0) };
}
