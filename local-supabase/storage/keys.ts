// Names of buckets and objects, and where an object's bytes live on disk.
// Bytes are stored under storageDir by a server-generated version id, never by the object's name,
// so no name can make the server read or write outside storageDir.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { errors } from './errors.ts';

// The characters Supabase Storage accepts in keys and bucket names (its isValidKey / isValidBucketName).
const KEY_CHARS = /^(\w|\/|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/;
const BUCKET_CHARS = /^(\w|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/;
const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Refuses what Storage refuses, and also `..`, empty segments and leading slashes (400 Invalid key). */
export function checkObjectName(name: string): string {
  const segments = name.split('/');
  if (
    !name ||
    name.length > 1024 ||
    !KEY_CHARS.test(name) ||
    segments.some((s) => s === '' || s === '..' || s === '.')
  ) {
    throw errors.invalidKey(name);
  }
  return name;
}

export function checkBucketName(name: string): string {
  if (!name || name.length > 100 || !BUCKET_CHARS.test(name) || name === '.' || name === '..') {
    throw errors.invalidBucketName();
  }
  return name;
}

export function objectsDir(storageDir: string): string {
  return path.join(storageDir, 'objects');
}

export function tempDir(storageDir: string): string {
  return path.join(storageDir, 'tmp');
}

export function tusDir(storageDir: string): string {
  return path.join(storageDir, 'tus');
}

/** Disk path of one stored version: only server-made UUIDs reach the file system. */
export function versionPath(storageDir: string, version: string): string {
  if (!VERSION.test(version)) throw new Error(`invalid object version ${JSON.stringify(version)}`);
  return path.join(objectsDir(storageDir), version);
}

/** The file of an object's stored version and its size; without a version or its file, the object is not found. */
export async function storedFile(storageDir: string, version: string | null | undefined): Promise<{ file: string; size: number }> {
  if (!version) throw errors.objectNotFound();
  const file = versionPath(storageDir, version);
  try {
    return { file, size: (await stat(file)).size };
  } catch {
    throw errors.objectNotFound();
  }
}
