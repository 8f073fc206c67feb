// The discussion side of the lesson player (issue 26), composed by src/app/routes/lesson.tsx into
// features/lessons' LessonPage. The comments' request starts with the page's; the thread's code (its
// own chunk, with its Radix dialogs) loads once the page has settled (issue 21): the video paints first.
import { useDeferredModule } from '@/platform/deferred-module';
import { useSession } from '@/platform/session';
import { useLessonComments } from '../api/hooks';

const loadDiscussion = () => import('./lesson-discussion');

export function useLessonDiscussion(lessonId: string) {
  const { user, profile, isAdmin } = useSession();
  useLessonComments(lessonId, user?.id);
  const discussion = useDeferredModule(loadDiscussion);
  return (id: string) =>
    discussion.module ? (
      <discussion.module.default
        key={id}
        lessonId={id}
        userId={user!.id}
        userName={profile?.name || user?.email || ''}
        avatarUrl={profile?.avatar_url}
        isStaff={isAdmin}
      />
    ) : (
      <div className="h-40 animate-pulse rounded-xl bg-white/5" aria-busy="true" aria-label="Carregando comentários" />
    );
}
