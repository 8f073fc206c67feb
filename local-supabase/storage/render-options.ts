// The transformation options of Storage's render routes, read and written as storage-api does: the query
// string and the body of POST /object/sign (its JSON schema), the X-Transformations header and a signed
// URL's token.
import { errors } from './errors.ts';

export const RESIZE = ['cover', 'contain', 'fill'] as const;
/** storage-api's formats: the original's, or AVIF. WebP comes by the request's Accept, never asked for by name. */
export const FORMATS = ['origin', 'avif'] as const;

export interface TransformOptions {
  width?: number;
  height?: number;
  resize?: (typeof RESIZE)[number];
  format?: (typeof FORMATS)[number];
  quality?: number;
}

/**
 * One transformation option as storage-api's JSON schema reads it (ajv coercing query strings):
 * integers >= 0 for sizes, 20-100 for quality, the enums for resize and format. `where` is
 * `querystring` or `body/transform`, as in its messages.
 */
function checkOption(where: string, key: keyof TransformOptions, raw: unknown): TransformOptions[typeof key] {
  const fail = (msg: string) => {
    throw errors.invalidRequest(`${where}/${key} ${msg}`);
  };
  if (key === 'resize' || key === 'format') {
    const allowed: readonly string[] = key === 'resize' ? RESIZE : FORMATS;
    if (typeof raw !== 'string' || !allowed.includes(raw)) fail('must be equal to one of the allowed values');
    return raw as TransformOptions['resize'] & TransformOptions['format'];
  }
  const n = typeof raw === 'string' ? (raw.trim() === '' ? 0 : Number(raw)) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail('must be integer');
  const value = n as number;
  if (key === 'quality') {
    if (value < 20) fail('must be >= 20');
    if (value > 100) fail('must be <= 100');
  } else if (value < 0) fail('must be >= 0');
  return value;
}

const KEYS = ['width', 'height', 'resize', 'format', 'quality'] as const;

/** The transformation of a public or authenticated render request's query string. */
export function transformFromQuery(params: URLSearchParams): TransformOptions {
  const t: Record<string, unknown> = {};
  for (const key of KEYS) {
    const values = params.getAll(key);
    if (values.length === 0) continue;
    if (values.length > 1) throw errors.invalidRequest(`querystring/${key} must be ${key === 'resize' || key === 'format' ? 'string' : 'integer'}`);
    t[key] = checkOption('querystring', key, values[0]);
  }
  return t as TransformOptions;
}

/** The `transform` of POST /object/sign, validated as storage-api's body schema does. */
export function transformFromBody(raw: unknown): TransformOptions {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw errors.invalidRequest('body/transform must be object');
  const t: Record<string, unknown> = {};
  for (const key of KEYS) {
    const value = (raw as Record<string, unknown>)[key];
    if (value !== undefined) t[key] = checkOption('body/transform', key, value);
  }
  return t as TransformOptions;
}

/** Width and height are clamped to 1-2500, as storage-api clamps them (IMAGE_TRANSFORMATION_LIMIT_MAX_SIZE): any integer, not snapped. */
export const MAX_DIMENSION = 2500;
export const clamp = (n: number) => Math.min(Math.max(n, 1), MAX_DIMENSION);

/**
 * The transformation as storage-api writes it for imgproxy (its X-Transformations header):
 * `height:200,width:200,resizing_type:fill,quality:60`. With `signed`, the form it puts in a signed
 * URL's token instead (`resize:cover` for the resizing type).
 */
export function transformationSegments(t: TransformOptions, signed = false): string[] {
  const out: string[] = [];
  if (t.height) out.push(`height:${clamp(t.height)}`);
  if (t.width) out.push(`width:${clamp(t.width)}`);
  if (t.width || t.height) {
    if (signed) {
      if (t.resize) out.push(`resize:${t.resize}`);
    } else {
      out.push(`resizing_type:${{ cover: 'fill', contain: 'fit', fill: 'force' }[t.resize ?? 'cover']}`);
    }
  }
  if (t.quality) out.push(`quality:${t.quality}`);
  if (t.format && t.format !== 'origin') out.push(`format:${t.format}`);
  return out;
}

/** Reads back a signed token's transformations (storage-api's setTransformationsFromString). */
export function transformFromToken(transformations: unknown, format: unknown): TransformOptions {
  const t: TransformOptions = {};
  for (const part of typeof transformations === 'string' ? transformations.split(',') : []) {
    const [name, value] = part.split(':');
    if (!value) continue;
    if (name === 'width' || name === 'height' || name === 'quality') {
      const n = parseInt(value, 10);
      if (Number.isFinite(n) && n > 0) t[name] = n;
    } else if (name === 'resize' && (RESIZE as readonly string[]).includes(value)) t.resize = value as TransformOptions['resize'];
    else if (name === 'format' && (FORMATS as readonly string[]).includes(value)) t.format = value as TransformOptions['format'];
  }
  if (typeof format === 'string' && (FORMATS as readonly string[]).includes(format)) t.format = format as TransformOptions['format'];
  return t;
}
