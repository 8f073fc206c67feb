// Pure parts of the hosted video's player (issue 39, docs/video.md): the device id video-playback
// counts screens by, and the move of the player's requests under the newest playback URL's token.

const DEVICE_KEY = 'plataforma:video-device';

/** This browser's random id for video-playback, kept in localStorage: one device counts once in
 * "Telas simultâneas" and the sharing report, and a reload replaces its own session instead of taking
 * another screen. Without storage, one id for the page's life. */
export function playbackDeviceId(): string {
  try {
    const kept = localStorage.getItem(DEVICE_KEY);
    if (kept) return kept;
    const made = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, made);
    return made;
  } catch {
    return (pageDeviceId ??= crypto.randomUUID());
  }
}
let pageDeviceId: string | undefined;

/** The video's folder in a playback URL (…/bcdn_token=…&expires=…/{guid}/): the token sits in the
 * path before it, so every playlist, segment and key the player derives from the URL is under it. */
const folderOf = (url: string) => url.slice(0, url.lastIndexOf('/') + 1);

/**
 * A request the player derived from the session's first playback URL, moved under the newest one's
 * token: each heartbeat answers a new URL (the old one expires minutes later), and the player keeps
 * playing from where it is instead of loading the video again. Other URLs pass unchanged.
 */
export function underLatestToken(url: string, firstUrl: string, latestUrl: string): string {
  const from = folderOf(firstUrl);
  return url.startsWith(from) ? folderOf(latestUrl) + url.slice(from.length) : url;
}

/** A rendition's name in the "Qualidade" menu: its height (720p), or its bitrate without one. */
export const renditionLabel = (level: { height?: number; bitrate?: number }) =>
  level.height ? `${level.height}p` : `${Math.round((level.bitrate ?? 0) / 1000)} kbps`;
