// The thread's order and rules, kept out of the components: questions newest first, each with its
// replies oldest first and the reply staff marked as the answer pinned apart; the 15-minute edit
// window; and the pt-BR name of a staff role. (A comment's text and links: src/concepts/user-text.ts.)
import type { AuthorRole, DiscussionComment } from '../api/queries';

export interface Thread {
  question: DiscussionComment;
  /** The reply marked as the answer, shown pinned under the question (not repeated among the replies). */
  answer: DiscussionComment | null;
  replies: DiscussionComment[];
}

const byTime = (a: DiscussionComment, b: DiscussionComment) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);

/** Questions newest first; a reply whose question is not in the list is not shown. */
export function buildThreads(comments: readonly DiscussionComment[]): Thread[] {
  const replies = new Map<string, DiscussionComment[]>();
  for (const c of comments) {
    if (!c.parent_id) continue;
    const list = replies.get(c.parent_id) ?? [];
    list.push(c);
    replies.set(c.parent_id, list);
  }
  return comments
    .filter((c) => !c.parent_id)
    .sort((a, b) => byTime(b, a))
    .map((question) => {
      const all = (replies.get(question.id) ?? []).sort(byTime);
      const answer = all.find((r) => r.marked_answer_at && !r.hidden_at) ?? null;
      return { question, answer, replies: all.filter((r) => r !== answer) };
    });
}

/** How long the author may edit a comment after posting it (the database refuses later: DC410). */
export const EDIT_WINDOW_MS = 15 * 60_000;

export function canEditUntil(comment: Pick<DiscussionComment, 'created_at'>): number {
  return new Date(comment.created_at).getTime() + EDIT_WINDOW_MS;
}

export const ROLE_LABELS: Record<AuthorRole, string> = {
  SCHOOL_ADMIN: 'Administração',
  INSTRUCTOR: 'Instrutor',
  STAFF: 'Equipe',
  SUPER_ADMIN: 'Equipe',
};
