// A page's data starts loading with its code (issue 12): the router runs these loaders while it
// downloads the page's chunk, instead of the page asking once it has rendered after the session →
// profile chain. They only warm TanStack Query's cache with the pages' own queries (same keys, so
// nothing is fetched twice) and never block navigation. Keyed by the page's path, as the first visit's
// templates are (./first-visit-pages.ts: the same requests, asked before the app's code ran). Loaded
// on demand (router.tsx).
import type { Params } from 'react-router-dom';
import { catalogQuery, courseDetailQuery } from '@/features/courses/api/hooks';
import { lessonBundleQuery } from '@/features/lessons/api/hooks';
import { quizForStudentQuery, quizStatesQuery } from '@/features/quizzes/api/hooks';
import { queryClient } from '@/platform/query-client';
import { profileQuery } from '@/platform/session';
import { supabase } from '@/platform/supabase';
import type { FirstVisitPath } from './first-visit-pages';

async function signedInUserId(): Promise<string | null> {
  const { data } = await supabase.auth.getSession();
  return data.session?.user.id ?? null;
}

export const pageLoaders: Record<FirstVisitPath, (params: Params) => Promise<void>> = {
  '/': async () => {
    const userId = await signedInUserId();
    if (!userId) return;
    // The school comes from the profile (the session provider asks for the same query: one request).
    const profile = await queryClient.fetchQuery(profileQuery(userId));
    if (!profile?.school_id) return;
    // The quiz states of the student's courses (issue 23) beside the catalog, not after it: the cards
    // are drawn once with both instead of twice (a second render of every card, on a phone's CPU).
    await Promise.all([queryClient.prefetchQuery(catalogQuery(profile.school_id, userId)), queryClient.prefetchQuery(quizStatesQuery(null, userId))]);
  },

  '/course/:courseId': async (params) => {
    const userId = await signedInUserId();
    if (userId && params.courseId)
      await Promise.all([queryClient.prefetchQuery(courseDetailQuery(params.courseId, userId)), queryClient.prefetchQuery(quizStatesQuery(params.courseId, userId))]);
  },

  '/course/:courseId/lesson/:lessonId': async (params) => {
    const userId = await signedInUserId();
    if (!userId || !params.courseId || !params.lessonId) return;
    // functions-js loads on first use (the first visit's functions stand-in); an uploaded video's
    // signing (sign-lesson-file) is on this page's critical path, so its code comes alongside the lesson data.
    void import('@supabase/functions-js');
    // The lesson's bundle first (its answer names the poster, the page's largest paint:
    // first-visit-pages.ts); its query also signs an uploaded video's URL as soon as the data arrives.
    await Promise.all([
      queryClient.prefetchQuery(lessonBundleQuery(params.lessonId, userId)),
      queryClient.prefetchQuery(courseDetailQuery(params.courseId, userId)),
      // The lesson's quiz (null for most lessons) and the quiz states of the side panel (issue 23).
      queryClient.prefetchQuery(quizForStudentQuery(params.lessonId, userId)),
      queryClient.prefetchQuery(quizStatesQuery(params.courseId, userId)),
    ]);
  },
};
