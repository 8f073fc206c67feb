// TanStack Query over lesson discussions. Keys:
//   ['discussions', 'lesson', lessonId, userId]   a lesson's comments as this reader may see them
//   ['discussions', 'admin', ...]                 the staff's "Comentários" list and counts (admin-hooks.ts)
// A new comment or an edit patches the list with the server's row; a delete drops the comment (and a
// question's replies); moderation (hide, unhide, mark, approve) refetches the lesson's list, since the
// database changes other rows too (the previous answer, the hidden reason). Every write also marks the
// staff's list and the sidebar's count stale (refetched only where they are shown).
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { toast } from '@/platform/toast';
import {
  addComment,
  approveComment,
  deleteComment,
  editComment,
  fetchLessonComments,
  hideComment,
  markCommentAnswer,
  unhideComment,
  type DiscussionComment,
} from './queries';

export const discussionKeys = {
  all: rootKeys.discussions,
  lessons: () => [...discussionKeys.all, 'lesson'] as const,
  /** Every reader's list of one lesson (moderation refreshes them all). */
  lessonAll: (lessonId: string) => [...discussionKeys.lessons(), lessonId] as const,
  lesson: (lessonId: string, userId: string) => [...discussionKeys.lessonAll(lessonId), userId] as const,
  /** The staff's "Comentários" screen and the sidebar's count of unanswered questions. */
  admin: () => [...discussionKeys.all, 'admin'] as const,
};

const refreshAdmin = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: discussionKeys.admin() });

export const lessonCommentsQuery = (lessonId: string, userId: string) =>
  queryOptions({ queryKey: discussionKeys.lesson(lessonId, userId), queryFn: () => fetchLessonComments(supabase, lessonId) });

export function useLessonComments(lessonId: string, userId: string | null | undefined) {
  return useQuery({ ...lessonCommentsQuery(lessonId, userId ?? ''), enabled: !!lessonId && !!userId });
}

function patch(queryClient: QueryClient, key: readonly unknown[], update: (list: DiscussionComment[]) => DiscussionComment[]) {
  queryClient.setQueryData<DiscussionComment[]>(key, (old) => (old ? update(old) : old));
}

/** A question (`parentId` null) or a reply. */
export function useAddComment(lessonId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  const key = discussionKeys.lesson(lessonId, userId ?? '');
  return useMutation({
    mutationFn: ({ comment, parentId }: { comment: string; parentId?: string | null }) => addComment(supabase, { userId: userId!, lessonId, comment, parentId }),
    onSuccess: (row) => {
      patch(queryClient, key, (list) => [row, ...list.filter((c) => c.id !== row.id)]);
      void refreshAdmin(queryClient);
      if (row.status === 'pending') toast.success('Comentário enviado!', { description: 'Ele aparecerá para os outros alunos depois de aprovado pela equipe.' });
      else toast.success(row.parent_id ? 'Resposta enviada!' : 'Comentário adicionado!');
    },
    meta: { errorTitle: 'Erro ao adicionar comentário' },
  });
}

export function useEditComment(lessonId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  const key = discussionKeys.lesson(lessonId, userId ?? '');
  return useMutation({
    mutationFn: (input: { id: string; comment: string }) => editComment(supabase, input),
    onSuccess: (row) => {
      patch(queryClient, key, (list) => list.map((c) => (c.id === row.id ? { ...c, ...row } : c)));
      void refreshAdmin(queryClient);
      toast.success('Comentário atualizado!');
    },
    meta: { errorTitle: 'Erro ao editar comentário' },
  });
}

export function useDeleteComment(lessonId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  const key = discussionKeys.lesson(lessonId, userId ?? '');
  return useMutation({
    mutationFn: (id: string) => deleteComment(supabase, id),
    onSuccess: (_void, id) => {
      patch(queryClient, key, (list) => list.filter((c) => c.id !== id && c.parent_id !== id));
      void refreshAdmin(queryClient);
      toast.success('Comentário excluído!');
    },
    meta: { errorTitle: 'Erro ao excluir comentário' },
  });
}

/** Staff moderation on the lesson page: hide (with an optional reason), show again, mark or unmark the answer, approve. */
export function useModerateComment(lessonId: string) {
  const queryClient = useQueryClient();
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: discussionKeys.lessonAll(lessonId) }), refreshAdmin(queryClient)]);
  const hide = useMutation({
    mutationFn: (input: { id: string; reason?: string | null }) => hideComment(supabase, input),
    onSuccess: async () => {
      await refresh();
      toast.success('Comentário ocultado!');
    },
    meta: { errorTitle: 'Erro ao ocultar comentário' },
  });
  const unhide = useMutation({
    mutationFn: (id: string) => unhideComment(supabase, id),
    onSuccess: async () => {
      await refresh();
      toast.success('Comentário visível novamente!');
    },
    meta: { errorTitle: 'Erro ao reexibir comentário' },
  });
  const mark = useMutation({
    mutationFn: (input: { id: string; marked: boolean }) => markCommentAnswer(supabase, input),
    onSuccess: async (_void, { marked }) => {
      await refresh();
      toast.success(marked ? 'Resposta marcada!' : 'Marcação removida!');
    },
    meta: { errorTitle: 'Erro ao marcar resposta' },
  });
  const approve = useMutation({
    mutationFn: (id: string) => approveComment(supabase, id),
    onSuccess: async () => {
      await refresh();
      toast.success('Comentário aprovado!');
    },
    meta: { errorTitle: 'Erro ao aprovar comentário' },
  });
  return { hide, unhide, mark, approve };
}
