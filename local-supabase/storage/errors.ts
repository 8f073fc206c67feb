// Supabase Storage's error bodies: `{statusCode, code, error, message}` with the HTTP status of statusCode.
// storage-js reads `message` (and `statusCode`) from these bodies.
import { HttpError } from '../http.ts';
import { isPgError } from '../db/engine.ts';

export function storageError(status: number, code: string, error: string, message: string): HttpError {
  return new HttpError(status, { statusCode: String(status), code, error, message });
}

export const errors = {
  bucketNotFound: () => storageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  objectNotFound: () => storageError(404, 'NoSuchKey', 'not_found', 'Object not found'),
  duplicate: (code = 'KeyAlreadyExists') => storageError(409, code, 'Duplicate', 'The resource already exists'),
  invalidKey: (key: string) => storageError(400, 'InvalidKey', 'InvalidKey', `Invalid key: ${key}`),
  invalidBucketName: () => storageError(400, 'InvalidBucketName', 'Invalid Input', 'Bucket name invalid'),
  tooLarge: () =>
    storageError(413, 'EntityTooLarge', 'Payload too large', 'The object exceeded the maximum allowed size'),
  invalidMime: (mime: string) =>
    storageError(415, 'InvalidMimeType', 'invalid_mime_type', `mime type ${mime} is not supported`),
  /** Ours (Storage does not look at the bytes): the file does not start as its declared type does. */
  contentMismatch: (mime: string) =>
    storageError(415, 'InvalidMimeType', 'invalid_mime_type', `mime type ${mime} does not match the file content`),
  accessDenied: (message: string) => storageError(403, 'AccessDenied', 'Unauthorized', message),
  invalidJwt: (message: string) => storageError(400, 'InvalidJWT', 'InvalidJWT', message),
  invalidRequest: (message: string) => storageError(400, 'InvalidRequest', 'InvalidRequest', message),
  invalidParameter: (name: string) => storageError(400, 'InvalidParameter', 'InvalidParameter', `Invalid Parameter ${name}`),
  invalidSignature: () => storageError(400, 'InvalidSignature', 'InvalidSignature', 'Invalid signature'),
  bucketNotEmpty: () =>
    storageError(409, 'ResourceNotEmpty', 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  invalidRange: () => storageError(416, 'InvalidRange', 'invalid_range', 'invalid range provided'),
  notFound: () => storageError(404, 'NotFound', 'not_found', 'Route not found'),
  /** 429 as storage-api passes on imgproxy's "Too many requests" (local: also a caller's full queue or render budget). */
  tooManyRequests: (message = 'Too many requests') => storageError(429, 'InvalidRequest', 'InvalidRequest', message),
};

/** Maps the database errors an operation can raise to Storage's responses; rethrows anything else. */
export function mapDbError(e: unknown, duplicateCode?: string): never {
  if (e instanceof HttpError) throw e;
  if (isPgError(e)) {
    // RLS refused a row (or a grant is missing): Storage answers 403 with this fixed message.
    if (e.code === '42501') throw errors.accessDenied('new row violates row-level security policy');
    if (e.code === '23505') throw errors.duplicate(duplicateCode);
    if (e.code === '23503') throw errors.bucketNotFound();
  }
  throw e;
}

