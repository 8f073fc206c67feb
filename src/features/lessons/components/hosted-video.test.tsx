// The hosted video's player (issue 39) as the lesson mounts it: the playback session's states against
// video-playback's answers, mocked at the network edge (fetch) only; supabase-js, the hooks, the
// components and react-player are the app's own. jsdom has no MediaSource, so hls.js itself does not
// play here: tests/e2e/protected-video.spec.ts plays the stream in Chromium.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Session } from '@supabase/supabase-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { LessonVideo } from './lesson-video';

const FOLDER = 'https://vz-test.b-cdn.net/bcdn_token=T&token_path=%2Fg1%2F&expires=';
const url = (n: number) => `${FOLDER}${n}/g1/playlist.m3u8`;
const granted = (n: number) => ({
  status: 200,
  body: { sessionId: 's1', playbackUrl: url(n), expiresAt: '2026-11-28T10:00:00Z', renewAfterSeconds: 30 },
});
const conflict = (code: string, error: string, extra: Record<string, unknown> = {}) => ({
  status: 409,
  body: { code, error, message: error, ...extra },
});

/** video-playback's next answers, in order ('offline': the request fails). */
let answers: ({ status: number; body: unknown } | 'offline')[] = [];
/** What the page sent to video-playback: each body, and whether it was a keepalive request. */
let sent: { action: string; sessionId?: string; deviceId?: string; lessonId: string; keepalive: boolean }[] = [];

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
  localStorage.clear();
  answers = [];
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const target = String(input instanceof Request ? input.url : input);
      if (!target.endsWith('/functions/v1/video-playback')) return new Response('{}', { status: 404 });
      const raw = input instanceof Request ? await input.text() : String(init?.body ?? '{}');
      const body = JSON.parse(raw);
      sent.push({ ...body, keepalive: !!init?.keepalive });
      if (body.action === 'end') return Response.json({ ended: true });
      const answer = answers.shift();
      if (!answer || answer === 'offline') throw new TypeError('Failed to fetch');
      return Response.json(answer.body, { status: answer.status });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const session = signedIn({ session: { access_token: 'token-u1' } as Session });

function renderHosted() {
  return renderScreen(
    <LessonVideo
      lessonId="l1"
      kind="upload"
      url="video-host"
      durationSec={600}
      completed={false}
      startAt={0}
      onSave={vi.fn()}
      onUnload={vi.fn()}
      onComplete={vi.fn()}
    />,
    { session },
  );
}

type PlayerElement = HTMLElement & {
  src: string;
  config: { xhrSetup: (xhr: XMLHttpRequest, url: string) => void };
  api: unknown;
};
const player = async () => (await screen.findByTestId('lesson-video')) as PlayerElement;
const actions = () => sent.map((s) => s.action);
const later = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** The URL the player's loader asks for when hls.js wants `requested`. */
function loaderUrl(el: PlayerElement, requested: string): string {
  const open = vi.fn();
  el.config.xhrSetup({ open } as unknown as XMLHttpRequest, requested);
  return open.mock.calls[0]![1] as string;
}

describe('the hosted video player', () => {
  it('starts a session with this device, renews it every renewAfterSeconds and moves its requests to the new URL without loading the video again', async () => {
    answers = [granted(1), granted(2)];
    renderHosted();
    const el = await player();
    expect(el.getAttribute('src')).toBe(url(1));
    const deviceId = localStorage.getItem('plataforma:video-device');
    expect(deviceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent).toEqual([{ lessonId: 'l1', action: 'start', deviceId, keepalive: false }]);

    await later(30_000);
    await waitFor(() => expect(actions()).toEqual(['start', 'heartbeat']));
    expect(sent[1]).toEqual({ lessonId: 'l1', action: 'heartbeat', sessionId: 's1', deviceId, keepalive: false });
    // The same player, the same source: the segments, keys and playlists it asks for next carry the new token.
    await waitFor(() => expect(loaderUrl(el, `${FOLDER}1/g1/720p/video3.ts`)).toBe(`${FOLDER}2/g1/720p/video3.ts`));
    expect(await player()).toBe(el);
    expect(el.getAttribute('src')).toBe(url(1));
    expect(loaderUrl(el, 'https://elsewhere.example/x.ts')).toBe('https://elsewhere.example/x.ts');
  });

  it('a third screen: the server’s message and "Assistir aqui", which takes over', async () => {
    answers = [conflict('too_many_screens', 'Você já está assistindo em 2 dispositivos.', { limit: 2 }), granted(1)];
    renderHosted();
    const notice = await screen.findByTestId('video-notice');
    expect(notice).toHaveTextContent('Você já está assistindo em 2 dispositivos.');
    expect(screen.queryByTestId('lesson-video')).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: 'Assistir aqui' }));
    expect((await player()).getAttribute('src')).toBe(url(1));
    expect(actions()).toEqual(['start', 'takeover']);
  });

  it('a session ended elsewhere stops the picture, says so, and "Assistir aqui" takes the screen back', async () => {
    answers = [
      granted(1),
      conflict('session_ended', 'Esta sessão terminou. Toque em assistir para continuar.'),
      granted(3),
    ];
    renderHosted();
    await player();
    await later(30_000);
    const notice = await screen.findByTestId('video-notice');
    expect(notice).toHaveTextContent('O vídeo parou neste dispositivo.');
    expect(notice).toHaveTextContent('A sua conta começou a assistir em outro dispositivo, ou a sessão foi encerrada.');
    expect(screen.queryByTestId('lesson-video')).toBeNull();
    // No more heartbeats for an ended session.
    await later(60_000);
    expect(actions()).toEqual(['start', 'heartbeat']);
    await userEvent.click(within(notice).getByRole('button', { name: 'Assistir aqui' }));
    expect((await player()).getAttribute('src')).toBe(url(3));
    expect(actions()).toEqual(['start', 'heartbeat', 'takeover']);
  });

  it('a heartbeat without an answer is asked again, and the picture goes on meanwhile', async () => {
    answers = [granted(1), 'offline', granted(2)];
    renderHosted();
    const el = await player();
    await later(30_000);
    await waitFor(() => expect(actions()).toEqual(['start', 'heartbeat']));
    expect(await player()).toBe(el);
    expect(screen.queryByTestId('video-notice')).toBeNull();
    await later(5_000);
    await waitFor(() => expect(actions()).toEqual(['start', 'heartbeat', 'heartbeat']));
    await waitFor(() => expect(loaderUrl(el, `${FOLDER}1/g1/360p/video.key`)).toBe(`${FOLDER}2/g1/360p/video.key`));
  });

  it('a start without an answer says so and tries again by itself', async () => {
    answers = ['offline', granted(1)];
    renderHosted();
    expect(await screen.findByTestId('video-notice')).toHaveTextContent('Não foi possível carregar o vídeo.');
    await later(5_000);
    expect((await player()).getAttribute('src')).toBe(url(1));
    expect(actions()).toEqual(['start', 'start']);
  });

  it('a video still being processed says so, and asks again on request', async () => {
    answers = [
      conflict('video_processing', 'O vídeo desta aula ainda está sendo processado.', {
        status: 'processing',
        percent: 40,
      }),
      granted(1),
    ];
    renderHosted();
    const notice = await screen.findByTestId('video-notice');
    expect(notice).toHaveTextContent('O vídeo desta aula ainda está sendo processado.');
    await userEvent.click(within(notice).getByRole('button', { name: 'Verificar novamente' }));
    await player();
    expect(actions()).toEqual(['start', 'start']);
  });

  it('leaving the lesson ends its session with a keepalive request, and closing the page too', async () => {
    answers = [granted(1)];
    const { unmount } = renderHosted();
    await player();
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() =>
      expect(sent.at(-1)).toEqual({ lessonId: 'l1', action: 'end', sessionId: 's1', keepalive: true }),
    );
    unmount();
    // Already ended: leaving does not end it twice.
    expect(actions()).toEqual(['start', 'end']);
  });

  it('leaving the lesson ends its session', async () => {
    answers = [granted(1)];
    const { unmount } = renderHosted();
    await player();
    unmount();
    await waitFor(() =>
      expect(sent.at(-1)).toEqual({ lessonId: 'l1', action: 'end', sessionId: 's1', keepalive: true }),
    );
  });

  it('the speed menu gains "Qualidade": Automática and the renditions; choosing one pins it', async () => {
    answers = [granted(1)];
    renderHosted();
    const el = await player();
    // hls.js's levels as it reports them once the playlist is read (jsdom cannot run hls.js itself).
    const api = {
      levels: [{ height: 240 }, { height: 360 }, { height: 720 }],
      autoLevelEnabled: true,
      currentLevel: -1,
    };
    el.api = api;
    act(() => void el.dispatchEvent(new Event('loadedmetadata')));
    const trigger = await screen.findByRole('button', { name: 'Velocidade de reprodução: 1x · Qualidade: Automática' });
    await userEvent.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitemradio')
        .map((i) => i.textContent),
    ).toEqual(['0,5x', '0,75x', 'Normal', '1,25x', '1,5x', '1,75x', '2x', 'Automática', '240p', '360p', '720p']);
    await userEvent.click(within(menu).getByRole('menuitemradio', { name: '360p' }));
    await waitFor(() => expect(api.currentLevel).toBe(1));
    expect(screen.getByRole('button', { name: 'Velocidade de reprodução: 1x · Qualidade: 360p' })).toBeInTheDocument();
  });
});
