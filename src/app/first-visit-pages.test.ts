// The HTML's inline script (src/platform/first-visit/vite-plugin.ts) with ./first-visit-pages.ts's
// templates, run as a browser runs it before the app, then the app's own first requests (the page's
// loader, the session's): the app takes every answer the script asked for and asks the network for
// nothing itself. A select or a parameter changed on one side only fails here.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStorageKey, FIRST_VISIT_SCRIPT, firstVisitData, pathPattern } from '@/platform/first-visit/vite-plugin';
import { fetchSchoolLogin } from '@/features/auth/api/school-login';
import { AUTH_STORAGE_KEY, SUPABASE_ANON_KEY, SUPABASE_URL } from '@/platform/api-config';
import { queryClient } from '@/platform/query-client';
import { fetchRoles, profileQuery } from '@/platform/session';
import { POSTER_SIZES, POSTER_WIDTHS } from '@/features/lessons/api/lesson-urls';
import { publicObjectUrl, responsiveImage } from '@/platform/image';
import { firstVisitPages } from './first-visit-pages';
import { pageLoaders } from './route-prefetch';

const USER = 'a0000000-0000-4000-8000-000000000011';
const SCHOOL = '5c000000-0000-4000-8000-000000000001';
const COURSE = 'c0000000-0000-4000-8000-000000000001';
const LESSON = 'e0000000-0000-4000-8000-000000000003';
const TOKEN = 'the-stored-access-token';
const VIDEO = `${SCHOOL}/${COURSE}/formulas "basicas".mp4`;

const app = firstVisitPages(SUPABASE_URL, SUPABASE_ANON_KEY);
const data = firstVisitData(SUPABASE_URL, app, () => '');

/** The <link>s the script added to the head, by their attributes. */
let links: Record<string, string>[] = [];

/** The inline script as the browser runs it at `path`, with its data- attributes. */
function runInlineScript(path: string) {
  const dataset = Object.fromEntries(Object.entries(data).map(([k, v]) => [k.slice('data-'.length), v]));
  const document = {
    currentScript: { dataset },
    createElement: () => {
      const attributes: Record<string, string> = {};
      return { attributes, setAttribute: (k: string, v: string) => (attributes[k] = v) };
    },
    head: { appendChild: (l: { attributes: Record<string, string> }) => links.push(l.attributes) },
  };
  new Function('document', 'location', FIRST_VISIT_SCRIPT)(document, { pathname: path });
}

/** What the API answers here: the lesson's video is `videoUrl`, its poster `videoPoster`. */
let videoUrl = VIDEO;
let videoPoster: string | null = null;
function answer(url: string): unknown {
  if (url.includes('/rest/v1/profiles?')) return [{ id: USER, school_id: SCHOOL, school: null }];
  if (url.includes('/rest/v1/lessons?'))
    return [
      {
        id: LESSON,
        course_id: COURSE,
        lesson_contents: { content: '', video_url: videoUrl, video_poster: videoPoster },
        materials: [],
        lesson_ratings: [],
      },
    ];
  if (url.endsWith('/rpc/quiz_for_student')) return null;
  if (url.endsWith('/functions/v1/sign-lesson-file'))
    return { signedUrl: '/storage/v1/object/sign/lesson-videos/x?token=t' };
  return [];
}

/** Every request that reached the network, as "METHOD url body". */
let network: string[] = [];

function storeSession(expiresInSec: number) {
  localStorage.setItem(
    AUTH_STORAGE_KEY,
    JSON.stringify({
      access_token: TOKEN,
      refresh_token: 'r',
      token_type: 'bearer',
      expires_in: expiresInSec,
      expires_at: Math.floor(Date.now() / 1000) + expiresInSec,
      user: { id: USER, aud: 'authenticated' },
    }),
  );
}

beforeEach(() => {
  network = [];
  links = [];
  videoUrl = VIDEO;
  videoPoster = null;
  queryClient.clear();
  storeSession(3600);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      network.push(`${init?.method ?? 'GET'} ${String(input)} ${typeof init?.body === 'string' ? init.body : ''}`);
      return new Response(JSON.stringify(answer(String(input))), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  delete window.__firstVisit;
});

/** Runs the inline script at `path` and waits for its `expected` requests, some asked once answers
 * arrive (the catalog after the profile, the signing after the lesson), as "METHOD url body". */
async function inlineScriptRequests(path: string, expected: number): Promise<string[]> {
  runInlineScript(path);
  await vi.waitFor(() => expect(network).toHaveLength(expected));
  return [...network];
}

/** After the app's own first requests: it took every early answer and asked the network for nothing. */
async function expectAppTookThemAll(early: string[]) {
  await vi.waitFor(() => expect(Object.keys(window.__firstVisit ?? {})).toEqual([]));
  expect(network).toEqual(early);
}

/** A signed-in page's first requests as the app makes them: the session's profile and roles, and the
 * route's loader. */
const appFirstRequests = (loader: Promise<void>) =>
  Promise.all([queryClient.fetchQuery(profileQuery(USER)), fetchRoles(USER), loader]);

describe('the inline script asks for what the app asks for first, and the app takes each answer', () => {
  it('home: the profile and roles, then (with the profile’s school) the catalog and quiz states', async () => {
    const early = await inlineScriptRequests('/', 4);
    await appFirstRequests(pageLoaders['/']({}));
    await expectAppTookThemAll(early);
    expect(network.find((r) => r.includes('/rpc/student_catalog'))).toContain(`"p_school_id":"${SCHOOL}"`);
  });

  it("a lesson: its course's outline, the lesson, its quiz, the quiz states, and its uploaded video signed", async () => {
    const early = await inlineScriptRequests(`/course/${COURSE}/lesson/${LESSON}`, 7);
    await appFirstRequests(pageLoaders['/course/:courseId/lesson/:lessonId']({ courseId: COURSE, lessonId: LESSON }));
    await expectAppTookThemAll(early);
    // The path travels as JSON, quotes and all.
    expect(
      JSON.parse(
        network
          .find((r) => r.includes('/sign-lesson-file'))!
          .split(' ')
          .slice(2)
          .join(' '),
      ),
    ).toEqual({
      bucket: 'lesson-videos',
      path: VIDEO,
      expiresIn: 900,
    });
  });

  it("a lesson: the page's requests start with the lesson's (its answer names the poster)", async () => {
    runInlineScript(`/course/${COURSE}/lesson/${LESSON}`);
    // The session's profile and roles, then the page's (the signing waits for the lesson's answer).
    const endpoints = network.map((r) => new URL(r.split(' ')[1]!).pathname.split('/').pop());
    expect(endpoints).toEqual(['profiles', 'user_roles', 'lessons', 'courses', 'quiz_for_student', 'my_quiz_states']);
  });

  it("a lesson's poster is preloaded as soon as the lesson names it, with the srcset and sizes its <img> has", async () => {
    videoPoster = `${SCHOOL}/poster-aula.jpg`;
    await inlineScriptRequests(`/course/${COURSE}/lesson/${LESSON}`, 7);
    const poster = responsiveImage(publicObjectUrl('course-thumbnails', videoPoster), POSTER_SIZES, POSTER_WIDTHS);
    await vi.waitFor(() => expect(links.filter((l) => l.as === 'image')).toHaveLength(1));
    expect(links.find((l) => l.as === 'image')).toEqual({
      rel: 'preload',
      as: 'image',
      fetchpriority: 'high',
      crossorigin: '',
      imagesrcset: poster.srcSet,
      imagesizes: poster.sizes,
    });
  });

  it('a poster that is not a path of ours (a URL, another shape) is not preloaded', async () => {
    for (const bad of ['https://tracker.example/x.jpg', `${SCHOOL}/../x.jpg`, `${SCHOOL}/x.svg`]) {
      videoPoster = bad;
      links = [];
      network = [];
      delete window.__firstVisit;
      await inlineScriptRequests(`/course/${COURSE}/lesson/${LESSON}`, 7);
      expect(links.filter((l) => l.as === 'image'), bad).toEqual([]);
    }
  });

  it('a lesson whose video is a YouTube link: nothing is signed', async () => {
    videoUrl = 'https://www.youtube.com/watch?v=abc';
    const early = await inlineScriptRequests(`/course/${COURSE}/lesson/${LESSON}`, 6);
    await appFirstRequests(pageLoaders['/course/:courseId/lesson/:lessonId']({ courseId: COURSE, lessonId: LESSON }));
    await expectAppTookThemAll(early);
    expect(network.some((r) => r.includes('/sign-lesson-file'))).toBe(false);
  });

  it('a lesson whose video is at the video host: nothing is signed (the player starts its playback session)', async () => {
    videoUrl = 'video-host';
    const early = await inlineScriptRequests(`/course/${COURSE}/lesson/${LESSON}`, 6);
    await appFirstRequests(pageLoaders['/course/:courseId/lesson/:lessonId']({ courseId: COURSE, lessonId: LESSON }));
    await expectAppTookThemAll(early);
    expect(network.some((r) => r.includes('/sign-lesson-file') || r.includes('/video-playback'))).toBe(false);
  });

  it('a course: its outline and the quiz states of its lessons', async () => {
    const early = await inlineScriptRequests(`/course/${COURSE}`, 4);
    await appFirstRequests(pageLoaders['/course/:courseId']({ courseId: COURSE }));
    await expectAppTookThemAll(early);
  });

  it("a school's login page, signed out: the school, by its slug as the app encodes it", async () => {
    localStorage.clear();
    const early = await inlineScriptRequests('/escola%20demo', 1);
    await fetchSchoolLogin('escola demo');
    await expectAppTookThemAll(early);
  });

  it('a stored token about to expire: nothing is asked with it (supabase-js refreshes it first)', () => {
    storeSession(10);
    runInlineScript('/');
    expect(network).toEqual([]);
  });

  it('each page by its path, and only ids reach a URL', () => {
    const page = (path: string) => Object.entries(app.pages).find(([route]) => new RegExp(pathPattern(route)).test(path))?.[1];
    expect(page('/')!.modules).toContain('app/routes/home.tsx');
    expect(page(`/course/${COURSE}/lesson/${LESSON}`)!.modules).toContain('app/routes/lesson.tsx');
    expect(page(`/course/${COURSE}/`)!.modules).toContain('app/routes/course.tsx');
    expect(page('/course/x%26select%3D*/lesson/y')).toBeUndefined();
  });

  it('reads the session where supabase-js keeps it, and has a loader for every page', () => {
    expect(authStorageKey(SUPABASE_URL)).toBe(AUTH_STORAGE_KEY);
    expect(Object.keys(pageLoaders).sort()).toEqual(Object.keys(app.pages).sort());
  });
});
