// The video host behind protected lesson videos (issue 39). One small interface, so another host
// (Panda Video, Cloudflare Stream) is one file more beside bunny.ts. The keys it needs are function
// secrets (VIDEO_HOST, BUNNY_*), never sent to a browser.

/** Where the browser sends the file (TUS), with a signature valid for this one video only. */
export interface VideoUpload {
  /** The host's id of the new video. */
  hostVideoId: string;
  /** The TUS endpoint the browser uploads to. */
  endpoint: string;
  /** Headers the browser sends with every TUS request (the signature and its expiry). */
  headers: Record<string, string>;
  /** When the signature stops being accepted (ISO 8601). */
  expiresAt: string;
}

export type VideoStatus =
  | { state: 'waiting' }
  | { state: 'processing'; percent: number }
  | { state: 'ready'; renditions: string[]; durationSeconds: number | null; thumbnailUrl: string | null }
  | { state: 'failed'; reason: string };

export interface PlaybackRequest {
  hostVideoId: string;
  /** Seconds the URL stays valid; the player renews it before then. */
  expiresInSeconds: number;
  /** The viewer's IP as the host will see it, when the host binds tokens to it. */
  viewerIp?: string;
}

export interface VideoHost {
  /** Creates the video at the host, in the school's collection, and signs its upload. */
  createUpload(input: { schoolId: string; title: string; expiresInSeconds: number }): Promise<VideoUpload>;
  status(hostVideoId: string): Promise<VideoStatus>;
  /** An HLS playlist URL whose token is bound to this video (and viewer) and expires. */
  playbackUrl(input: PlaybackRequest): Promise<string>;
  delete(hostVideoId: string): Promise<void>;
  /** Checks a webhook request's signature; returns the video and its new status, or null when forged. */
  verifyWebhook(req: { body: string; headers: Headers }): Promise<{ hostVideoId: string; status: VideoStatus } | null>;
}
