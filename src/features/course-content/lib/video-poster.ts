// A lesson video's poster (issue 38): one frame of the file the staff member is uploading, drawn in their
// browser, so that a student opening the lesson for the first time sees it at once while the video is on
// its way. A file this browser cannot decode (an AVI, an HEVC .mov) simply has no poster.

/** The widest poster kept: wider screens scale it (the student's page asks for its width anyway). */
const MAX_WIDTH = 1280;
/** A frame a little into the video: the very first one is often black. */
const FRAME_AT_SEC = 1;
const GIVE_UP_MS = 8000;

/** A JPEG of the video's frame at about 1 s (or a tenth of a shorter video), or null when the browser
 * cannot show this file. */
export async function captureVideoPoster(file: File): Promise<Blob | null> {
  const video = document.createElement('video');
  if (!file.type || !video.canPlayType(file.type)) return null;
  const url = URL.createObjectURL(file);
  try {
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    video.src = url;
    await mediaEvent(video, 'loadeddata');
    video.currentTime = Math.min(FRAME_AT_SEC, (video.duration || 0) / 10);
    await mediaEvent(video, 'seeked');
    if (!video.videoWidth || !video.videoHeight) return null;
    const scale = Math.min(1, MAX_WIDTH / video.videoWidth);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.82));
  } catch {
    return null;
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

function mediaEvent(video: HTMLVideoElement, name: 'loadeddata' | 'seeked'): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), GIVE_UP_MS);
    video.addEventListener(name, () => (clearTimeout(timer), resolve()), { once: true });
    video.addEventListener('error', () => (clearTimeout(timer), reject(new Error('undecodable'))), { once: true });
  });
}
