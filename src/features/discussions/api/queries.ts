// Lesson discussions (issue 26, docs/discussions.md) as plain functions over a supabase-js client:
// the lesson's comments (row-level security gives each reader exactly what they may see: students
// the published, visible ones plus their own pending ones; staff everything, with why a comment was
// hidden), a comment or a reply, the author's edit (first 15 minutes) and delete, and the staff's
// moderation RPCs. The lesson page and the admin "Comentários" screen share them.
import type { DbClient } from '@/platform/db';
import type { Tables } from '@/types/database';

type CommentRow = Tables<'lesson_comments'>;

export type AuthorRole = NonNullable<CommentRow['author_role']>;

export type DiscussionComment = Pick<
  CommentRow,
  | 'id'
  | 'user_id'
  | 'lesson_id'
  | 'parent_id'
  | 'comment'
  | 'author_name'
  | 'author_avatar_url'
  | 'author_role'
  | 'status'
  | 'created_at'
  | 'edited_at'
  | 'hidden_at'
  | 'marked_answer_at'
> & {
  /** Why staff hid it: read by staff only (null for everyone else, and while visible). */
  lesson_comment_moderation?: { hidden_reason: string | null; hidden_at: string } | null;
};

export const COMMENT_COLUMNS =
  'id, user_id, lesson_id, parent_id, comment, author_name, author_avatar_url, author_role, status, created_at, edited_at, hidden_at, marked_answer_at';

const LIST_COLUMNS = `${COMMENT_COLUMNS}, lesson_comment_moderation(hidden_reason, hidden_at)`;

/** A lesson's comments as the caller may read them, newest first (the thread orders replies itself). */
export async function fetchLessonComments(client: DbClient, lessonId: string): Promise<DiscussionComment[]> {
  const { data, error } = await client
    .from('lesson_comments')
    .select(LIST_COLUMNS)
    .eq('lesson_id', lessonId)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false });
  if (error) {
    if (error.code === '22P02') return [];
    throw error;
  }
  // One-to-one embed: an object in PostgREST; accept an array too.
  return (data ?? []).map((row) => {
    const r = row as DiscussionComment & { lesson_comment_moderation?: unknown };
    const m = r.lesson_comment_moderation;
    return { ...r, lesson_comment_moderation: (Array.isArray(m) ? m[0] : m) ?? null } as DiscussionComment;
  });
}

/** A question (no parentId) or a reply to one; the database trims it, sets the author's name, role and status. */
export async function addComment(
  client: DbClient,
  { userId, lessonId, comment, parentId }: { userId: string; lessonId: string; comment: string; parentId?: string | null },
): Promise<DiscussionComment> {
  const { data, error } = await client
    .from('lesson_comments')
    .insert({ user_id: userId, lesson_id: lessonId, comment: comment.trim(), ...(parentId ? { parent_id: parentId } : {}) })
    .select(COMMENT_COLUMNS)
    .single();
  if (error) throw error;
  return data as DiscussionComment;
}

/** The author's edit, within 15 minutes of posting (else DC410); sets edited_at. */
export async function editComment(client: DbClient, { id, comment }: { id: string; comment: string }): Promise<DiscussionComment> {
  const { data, error } = await client.from('lesson_comments').update({ comment: comment.trim() }).eq('id', id).select(COMMENT_COLUMNS).single();
  if (error) throw error;
  return data as DiscussionComment;
}

/** Deletes a comment (its author, or staff of the school); a question takes its replies with it. */
export async function deleteComment(client: DbClient, id: string): Promise<void> {
  const { data, error } = await client.from('lesson_comments').delete().eq('id', id).select('id');
  if (error) throw error;
  if (!data?.length) throw { code: '42501', message: 'Você não tem permissão para esta ação.' };
}

export async function hideComment(client: DbClient, { id, reason }: { id: string; reason?: string | null }): Promise<void> {
  const { error } = await client.rpc('hide_comment', { p_comment_id: id, p_reason: reason?.trim() || null });
  if (error) throw error;
}

export async function unhideComment(client: DbClient, id: string): Promise<void> {
  const { error } = await client.rpc('unhide_comment', { p_comment_id: id });
  if (error) throw error;
}

/** Marks a reply as its question's answer (replacing an earlier one), or unmarks it. */
export async function markCommentAnswer(client: DbClient, { id, marked }: { id: string; marked: boolean }): Promise<void> {
  const { error } = await client.rpc('mark_comment_answer', { p_comment_id: id, p_marked: marked });
  if (error) throw error;
}

export async function approveComment(client: DbClient, id: string): Promise<void> {
  const { error } = await client.rpc('approve_comment', { p_comment_id: id });
  if (error) throw error;
}
