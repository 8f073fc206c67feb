// Resumable uploads to Supabase Storage (TUS at /storage/v1/upload/resumable) with tus-js-client, as
// Supabase documents them: 6 MB chunks, the upload's URL remembered in localStorage so a reload or a
// dropped network resumes from the server's offset instead of starting again. Lesson videos go the same
// way to the video host when the platform has one (startHostedUpload). Loaded only by the admin screens
// that send videos.
import { Upload, type PreviousUpload, type UploadOptions } from 'tus-js-client';
import { supabase, SUPABASE_ANON_KEY, SUPABASE_URL } from './supabase';

export interface UploadProgress {
  bytesSent: number;
  bytesTotal: number;
  percent: number;
  /** Estimated seconds left, from the speed since the upload (re)started; null until known. */
  secondsLeft: number | null;
}

export interface ResumableUploadOptions {
  bucket: string;
  /** Object path inside the bucket (storage-safe). */
  path: string;
  file: File;
  onProgress?: (progress: UploadProgress) => void;
  /** Called when the network drops and the client waits to retry. */
  onRetry?: () => void;
}

export interface ResumableUpload {
  /** Resolves when the last byte is stored. */
  done: Promise<void>;
  /** Stops the upload and forgets it on the server. */
  cancel: () => Promise<void>;
}

const CHUNK_SIZE = 6 * 1024 * 1024;

export function startResumableUpload({ bucket, path, file, onProgress, onRetry }: ResumableUploadOptions): ResumableUpload {
  return startTusUpload(file, { onProgress, onRetry }, async () => {
    const { data } = await supabase.auth.getSession();
    const token = data.session?.access_token;
    if (!token) throw new Error('Não autenticado');
    return {
      options: {
        endpoint: `${SUPABASE_URL}/storage/v1/upload/resumable`,
        headers: { authorization: `Bearer ${token}`, apikey: SUPABASE_ANON_KEY, 'x-upsert': 'true' },
        uploadDataDuringCreation: true,
        metadata: { bucketName: bucket, objectName: path, contentType: file.type || 'application/octet-stream', cacheControl: '3600' },
      },
      // Resume a previous upload of the same file to the same object (a reload, a closed tab).
      resumes: (p) => p.metadata?.objectName === path && p.metadata?.bucketName === bucket,
    };
  });
}

/** Where the video host takes one video: what the video-upload function answers (issue 39). */
export interface HostedUploadTarget {
  endpoint: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
}

/**
 * Sends a lesson video straight to the video host (Bunny Stream's TUS endpoint) with the signature the
 * video-upload function made for that one video; the host wants the file's type in the metadata. Each
 * upload is a new video at the host, so there is no earlier upload to resume after a reload; a dropped
 * network still resumes from the host's offset.
 */
export function startHostedUpload({
  target,
  file,
  onProgress,
  onRetry,
}: { target: HostedUploadTarget; file: File } & Pick<ResumableUploadOptions, 'onProgress' | 'onRetry'>): ResumableUpload {
  return startTusUpload(file, { onProgress, onRetry }, () =>
    Promise.resolve({
      options: {
        endpoint: target.endpoint,
        headers: target.headers,
        storeFingerprintForResuming: false,
        metadata: { ...target.metadata, filetype: file.type || 'application/octet-stream' },
      },
      resumes: () => false,
    }),
  );
}

type TusSetup = Pick<UploadOptions, 'endpoint' | 'headers' | 'metadata' | 'uploadDataDuringCreation' | 'storeFingerprintForResuming'>;

/** One resumable upload with tus-js-client: progress with the time left, retries, cancel. */
function startTusUpload(
  file: File,
  { onProgress, onRetry }: Pick<ResumableUploadOptions, 'onProgress' | 'onRetry'>,
  setup: () => Promise<{ options: TusSetup; resumes: (previous: PreviousUpload) => boolean }>,
): ResumableUpload {
  let upload: Upload | null = null;
  let cancelled = false;
  let rejectDone: (error: Error) => void = () => undefined;
  const done = (async () => {
    const { options, resumes } = await setup();
    await new Promise<void>((resolve, reject) => {
      rejectDone = reject;
      if (cancelled) return reject(new Error('Envio cancelado'));
      let startedAt = Date.now();
      let startedBytes = 0;
      upload = new Upload(file, {
        ...options,
        // Network drops: keep retrying for about two minutes before giving up.
        retryDelays: [0, 1000, 2000, 3000, 5000, 5000, 10000, 10000, 15000, 20000, 30000, 30000],
        removeFingerprintOnSuccess: true,
        chunkSize: CHUNK_SIZE,
        onShouldRetry: () => {
          onRetry?.();
          return !cancelled;
        },
        onError: (error) => reject(error),
        onProgress: (sent, total) => {
          const elapsed = (Date.now() - startedAt) / 1000;
          const speed = elapsed > 0.5 ? (sent - startedBytes) / elapsed : 0;
          onProgress?.({
            bytesSent: sent,
            bytesTotal: total,
            percent: total ? Math.floor((sent / total) * 100) : 0,
            secondsLeft: speed > 0 ? (total - sent) / speed : null,
          });
        },
        onSuccess: () => resolve(),
      });
      void upload.findPreviousUploads().then((previous: PreviousUpload[]) => {
        const same = previous.find(resumes);
        if (same) {
          upload!.resumeFromPreviousUpload(same);
          startedBytes = 0;
        }
        startedAt = Date.now();
        upload!.start();
      }, reject);
    });
  })();
  return {
    done,
    cancel: async () => {
      cancelled = true;
      rejectDone(new Error('Envio cancelado'));
      await upload?.abort(true).catch(() => undefined);
    },
  };
}

/**
 * A stable object name for resuming: the same file (name, size, last modified) picked again after a
 * reload maps to the same path, so tus-js-client finds the unfinished upload.
 */
export function resumableObjectName(file: File, safeName: string): string {
  return `${file.size.toString(36)}-${file.lastModified.toString(36)}-${safeName}`;
}
