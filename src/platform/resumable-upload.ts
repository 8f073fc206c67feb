// Resumable uploads to Supabase Storage (TUS at /storage/v1/upload/resumable) with tus-js-client, as
// Supabase documents them: 6 MB chunks, the upload's URL remembered in localStorage so a reload or a
// dropped network resumes from the server's offset instead of starting again. Loaded only by the
// admin screens that send videos.
import { Upload, type PreviousUpload } from 'tus-js-client';
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
  let upload: Upload | null = null;
  let cancelled = false;
  let rejectDone: (error: Error) => void = () => undefined;
  const done = (async () => {
    const { data } = await supabase.auth.getSession();
    const token = data.session?.access_token;
    if (!token) throw new Error('Não autenticado');
    await new Promise<void>((resolve, reject) => {
      rejectDone = reject;
      if (cancelled) return reject(new Error('Envio cancelado'));
      let startedAt = Date.now();
      let startedBytes = 0;
      upload = new Upload(file, {
        endpoint: `${SUPABASE_URL}/storage/v1/upload/resumable`,
        // Network drops: keep retrying for about two minutes before giving up.
        retryDelays: [0, 1000, 2000, 3000, 5000, 5000, 10000, 10000, 15000, 20000, 30000, 30000],
        headers: { authorization: `Bearer ${token}`, apikey: SUPABASE_ANON_KEY, 'x-upsert': 'true' },
        uploadDataDuringCreation: true,
        removeFingerprintOnSuccess: true,
        chunkSize: CHUNK_SIZE,
        metadata: { bucketName: bucket, objectName: path, contentType: file.type || 'application/octet-stream', cacheControl: '3600' },
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
      // Resume a previous upload of the same file to the same object (a reload, a closed tab).
      void upload.findPreviousUploads().then((previous: PreviousUpload[]) => {
        const same = previous.find((p) => p.metadata?.objectName === path && p.metadata?.bucketName === bucket);
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
