// Uploaded images at the size the screen needs: our public Storage URLs are rewritten to Storage's
// image transformations (`/storage/v1/render/image/public/...?width=`, what supabase-js's
// `getPublicUrl(path, { transform: { width } })` builds) and offered as a `srcset`. Only the width is
// asked: the server keeps the source's ratio and crops nothing, so the focal position stays the
// page's CSS (object-position), as for the original. Images on other hosts (the URL tab) stay as
// they are. The server answers WebP to browsers that accept it.
import { SUPABASE_URL } from './api-config';

/** Widths offered in a srcset: phones (1x-3x) to wide desktops. */
export const IMAGE_WIDTHS: readonly number[] = [320, 480, 640, 800, 960, 1280, 1600, 1920];

const base = SUPABASE_URL.replace(/\/+$/, '');
const OBJECT_PREFIX = `${base}/storage/v1/object/public/`;
const RENDER_PREFIX = `${base}/storage/v1/render/image/public/`;

/**
 * Stored URLs whose transformed versions failed to load in this tab (a project without image
 * transformations, or a source the render route refuses): from then on they are used as they are.
 */
export const failedRenders = new Set<string>();

/**
 * A profile photo as the SPA shows it: only a public object of this API's avatars bucket (what the upload
 * writes), else null. A student's avatar_url is loaded by every reader of their comments and the ranking,
 * so one on another host would tell that host who read them; the database keeps the path to the account's
 * own folder but cannot know this API's address (supabase/migrations/20261128001010_avatar_url_own_bucket.sql).
 */
export function ownAvatarUrl(url: string | null | undefined): string | null {
  return url?.startsWith(`${OBJECT_PREFIX}avatars/`) ? url : null;
}

/** The public URL of an object of one of our public buckets (what storage-js's getPublicUrl builds, without
 * loading storage-js on a student's page). */
export function publicObjectUrl(bucket: string, path: string): string {
  return `${OBJECT_PREFIX}${bucket}/${path}`;
}

/** The transformed URL of one of our public Storage objects at `width` px, or null for any other URL. */
export function renderedImageUrl(url: string | null | undefined, width: number): string | null {
  if (!url?.startsWith(OBJECT_PREFIX) || failedRenders.has(url)) return null;
  const rest = url.slice(OBJECT_PREFIX.length);
  const q = rest.indexOf('?');
  const path = q === -1 ? rest : rest.slice(0, q);
  if (!path.includes('/')) return null; // bucket/name
  // The object URL's own query (an avatar's ?v= cache buster) is kept: a new upload is a new URL.
  const query = q === -1 ? '' : `&${rest.slice(q + 1)}`;
  return `${RENDER_PREFIX}${path}?width=${Math.round(width)}${query}`;
}

export interface ResponsiveImage {
  src: string;
  srcSet?: string;
  sizes?: string;
}

/**
 * `src`/`srcSet`/`sizes` for an <img> (or a preload). `sizes` is the CSS width the image is painted
 * at; `src` stays the original, what a browser without srcset (or the fallback) loads.
 */
export function responsiveImage(url: string, sizes: string, widths: readonly number[] = IMAGE_WIDTHS): ResponsiveImage {
  if (!renderedImageUrl(url, 1)) return { src: url };
  return { src: url, srcSet: widths.map((w) => `${renderedImageUrl(url, w)} ${w}w`).join(', '), sizes };
}
