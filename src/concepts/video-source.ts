// A video source of the staff's forms (lessons and announcements): none, a YouTube/Vimeo page, or a
// file sent with a resumable upload (to Storage, or a lesson's to the video host). One URL check for both, and the state of the file being sent.
import { useState } from 'react';
import { z } from '@/platform/zod';
import {
  resumableObjectName,
  startHostedUpload,
  startResumableUpload,
  type HostedUploadTarget,
  type ResumableUpload,
  type UploadProgress,
} from '@/platform/resumable-upload';
import { storageSafeName } from '@/platform/upload';

export type VideoUrlKind = 'youtube' | 'vimeo';

/** youtube / vimeo for a URL of those players (watch, youtu.be, embed, shorts, live; vimeo.com/123, player.vimeo.com), else null. */
export function videoUrlKind(url: string): VideoUrlKind | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  if (!/^https?:$/.test(u.protocol)) return null;
  const host = u.hostname.replace(/^www\.|^m\./, '');
  if (host === 'youtu.be' && u.pathname.length > 1) return 'youtube';
  if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (u.searchParams.get('v') || /^\/(embed|shorts|live)\/[\w-]+/.test(u.pathname)) return 'youtube';
  }
  if ((host === 'vimeo.com' || host === 'player.vimeo.com') && /\/\d+/.test(u.pathname)) return 'vimeo';
  return null;
}

export const VIDEO_MODES = ['none', 'url', 'upload'] as const;
export type VideoMode = (typeof VIDEO_MODES)[number];

/** The two form fields of a video source; a form's zod object spreads `videoSourceFields`. */
export interface VideoSourceValues {
  video_mode: VideoMode;
  video_url: string;
}
export const videoSourceFields = { video_mode: z.enum(VIDEO_MODES), video_url: z.string() };

/** The superRefine rule of a form with a video source (SPEC §5's message). */
export function checkVideoSource(v: VideoSourceValues, ctx: z.RefinementCtx): void {
  if (v.video_mode === 'url' && !videoUrlKind(v.video_url))
    ctx.addIssue({ code: 'custom', path: ['video_url'], message: 'Informe uma URL válida do YouTube ou do Vimeo' });
}

/** '41 s', '2 min 5 s', '1 h 3 min' ('' when unknown). */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '';
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Sends a file to `bucket/folder/<resumable name>` and resolves with its object path. */
export type SendVideo = (bucket: string, folder: string, file: File) => Promise<string>;
/** Sends a file to the video host, where video-upload's answer says (issue 39). */
export type SendHostedVideo = (target: HostedUploadTarget, file: File) => Promise<void>;

export interface VideoSource {
  /** The file chosen to send (checked), or null. */
  file: File | null;
  fileError: string | null;
  chooseFile: (file: File | null, validate: (file: File) => string | null) => boolean;
  /** The stored video already there (its object path), until removed in the form. */
  kept: string | null;
  removeKept: () => void;
  /** 'Selecione um arquivo de vídeo' when the upload mode has neither a new file nor a kept one. */
  missingFile: (mode: VideoMode) => boolean;
  sending: boolean;
  progress: UploadProgress | null;
  waiting: boolean;
  send: SendVideo;
  sendHosted: SendHostedVideo;
  cancel: () => void;
}

/** The state of a form's video source: the file, the kept upload, and the upload in progress. */
export function useVideoSource(keptUpload: string | null): VideoSource {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [kept, setKept] = useState(keptUpload);
  const [active, setActive] = useState<ResumableUpload | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [waiting, setWaiting] = useState(false);
  const callbacks = {
    onProgress: (p: UploadProgress) => (setWaiting(false), setProgress(p)),
    onRetry: () => setWaiting(true),
  };
  async function track(upload: ResumableUpload): Promise<void> {
    setActive(upload);
    try {
      await upload.done;
    } finally {
      setActive(null);
      setProgress(null);
    }
  }
  return {
    file,
    fileError,
    chooseFile: (f, validate) => {
      const message = f ? validate(f) : null;
      setFileError(message);
      setFile(message ? null : f);
      return !message;
    },
    kept,
    removeKept: () => setKept(null),
    missingFile: (mode) => {
      const missing = mode === 'upload' && !file && !kept;
      if (missing) setFileError('Selecione um arquivo de vídeo');
      return missing;
    },
    sending: !!active,
    progress,
    waiting,
    send: async (bucket, folder, f) => {
      const path = `${folder}/${resumableObjectName(f, storageSafeName(f.name))}`;
      await track(startResumableUpload({ bucket, path, file: f, ...callbacks }));
      return path;
    },
    sendHosted: (target, f) => track(startHostedUpload({ target, file: f, ...callbacks })),
    cancel: () => void active?.cancel(),
  };
}
