// The YouTube IFrame API, loaded here before react-player's YouTube element is drawn (issue 46). The
// element's own loader (youtube-video-element) leaves a script that cannot load (offline, blocked) as
// a grey box and an unhandled promise rejection, and keeps that failure for the page's life, so no
// retry could work. Loaded here first, the element finds window.YT ready and never loads it itself; a
// failure is ours to say, and a retry asks again.

const API_URL = 'https://www.youtube.com/iframe_api';
/** iframe_api loads a second script before it calls back: past this, it is not coming. */
const GIVE_UP_MS = 20_000;

type YouTubeWindow = Window & { YT?: { Player?: unknown }; onYouTubeIframeAPIReady?: () => void };

let loading: Promise<void> | null = null;

/** Resolves when window.YT.Player is there; rejects (and forgets the attempt) when it cannot load. */
export function loadYouTubeApi(): Promise<void> {
  const w = window as YouTubeWindow;
  if (w.YT?.Player) return Promise.resolve();
  if (loading) return loading;
  loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = API_URL;
    script.async = true;
    const fail = () => {
      window.clearTimeout(timer);
      script.remove();
      loading = null;
      reject(new Error('Não foi possível carregar o player do YouTube.'));
    };
    const timer = window.setTimeout(fail, GIVE_UP_MS);
    w.onYouTubeIframeAPIReady = () => {
      window.clearTimeout(timer);
      resolve();
    };
    script.onerror = fail;
    document.head.append(script);
  });
  return loading;
}
