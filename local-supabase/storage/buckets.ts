// Bucket endpoints: every statement on storage.buckets runs as the caller (RLS; in practice only the
// service role or a policy the migrations add may manage buckets).
import { asCaller, type RequestAuth } from '../http.ts';
import { errors, mapDbError } from './errors.ts';
import { checkBucketName } from './keys.ts';
import { allowDeleteQuery, iso, type ReqLike, type Store } from './object-rows.ts';
import { emptyBucket } from './list-remove.ts';


// The columns Storage's routes select; file_size_limit is a bigint, which node-postgres gives as a string.
const BUCKET_COLUMNS = `id, name, owner, public, file_size_limit::float8 as file_size_limit, allowed_mime_types,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`;

interface BucketBody {
  id?: unknown;
  name?: unknown;
  public?: unknown;
  file_size_limit?: unknown;
  allowed_mime_types?: unknown;
}

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** A number of bytes, or a string like '50MB' / '1GiB' as Storage accepts; null clears the limit. */
export function parseFileSizeLimit(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  const m = typeof value === 'string' ? value.trim().match(/^(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?$/i) : null;
  if (!m) throw errors.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
  return Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]);
}

function parseMimeTypes(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !/^[\w.+-]+\/[\w.+*-]+$/.test(v))) {
    throw errors.invalidRequest('Invalid allowed_mime_types');
  }
  return value.length ? (value as string[]) : null;
}

export async function listBuckets(s: Store, auth: RequestAuth, req: ReqLike, url: URL) {
  const limit = Number(url.searchParams.get('limit') ?? 1000);
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const search = url.searchParams.get('search') ?? '';
  const column = ['id', 'name', 'created_at', 'updated_at'].includes(url.searchParams.get('sortColumn') ?? '')
    ? url.searchParams.get('sortColumn')!
    : 'name';
  const order = url.searchParams.get('sortOrder') === 'desc' ? 'desc' : 'asc';
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1/bucket', (tx) =>
    tx.query(
      `select ${BUCKET_COLUMNS}, 'STANDARD' as type from storage.buckets where name ilike '%' || $1 || '%'
       order by ${column} ${order} limit $2 offset $3`,
      [search, Number.isInteger(limit) && limit > 0 ? limit : 1000, Number.isInteger(offset) && offset > 0 ? offset : 0],
    ),
  );
  return rows;
}

export async function getBucket(s: Store, auth: RequestAuth, req: ReqLike, id: string) {
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1/bucket', (tx) =>
    tx.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id]),
  );
  if (!rows[0]) throw errors.bucketNotFound();
  return rows[0];
}

export async function createBucket(s: Store, auth: RequestAuth, req: ReqLike, body: BucketBody) {
  const name = checkBucketName(typeof body.name === 'string' ? body.name : '');
  const id = typeof body.id === 'string' && body.id ? checkBucketName(body.id) : name;
  const owner = auth.claims.sub;
  await asCaller(s.ctx, auth, req, '/storage/v1/bucket', (tx) =>
    tx
      .query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5, $6, $7::text[])`,
        [
          id,
          name,
          owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null,
          owner ?? null,
          body.public === true,
          parseFileSizeLimit(body.file_size_limit),
          parseMimeTypes(body.allowed_mime_types),
        ],
      )
      .catch((e) => mapDbError(e, 'BucketAlreadyExists')),
  );
  return { name };
}

/** Changes only the fields sent (storage-js sends what it was given); null clears a limit. */
export async function updateBucket(s: Store, auth: RequestAuth, req: ReqLike, id: string, body: BucketBody) {
  const fields: [string, unknown][] = [];
  if (body.public !== undefined) {
    if (typeof body.public !== 'boolean') throw errors.invalidRequest('body/public must be boolean');
    fields.push(['public', body.public]);
  }
  if (body.file_size_limit !== undefined) fields.push(['file_size_limit', parseFileSizeLimit(body.file_size_limit)]);
  if (body.allowed_mime_types !== undefined) fields.push(['allowed_mime_types', parseMimeTypes(body.allowed_mime_types)]);
  if (fields.length === 0) throw errors.invalidRequest('No content provided');
  // Column names come from the fixed list above; every value is a bound parameter.
  const set = fields.map(([col], i) => `${col} = $${i + 2}${col === 'allowed_mime_types' ? '::text[]' : ''}`);
  const { rowCount } = await asCaller(s.ctx, auth, req, '/storage/v1/bucket', (tx) =>
    tx
      .query(`update storage.buckets set ${set.join(', ')}, updated_at = now() where id = $1`, [
        id,
        ...fields.map(([, v]) => v),
      ])
      .catch(mapDbError),
  );
  if (rowCount === 0) throw errors.bucketNotFound();
  return { message: 'Successfully updated' };
}

export async function deleteBucket(s: Store, auth: RequestAuth, req: ReqLike, id: string) {
  // Counted as the superuser, as Storage does: objects the caller cannot see still block deletion.
  const { rows } = await s.ctx.engine.query<{ n: number }>(
    'select count(*)::int as n from storage.objects where bucket_id = $1',
    [id],
  );
  if (rows[0].n > 0) throw errors.bucketNotEmpty();
  const { rowCount } = await asCaller(s.ctx, auth, req, '/storage/v1/bucket', async (tx) => {
    await allowDeleteQuery(tx);
    return tx.query('delete from storage.buckets where id = $1', [id]).catch(mapDbError);
  });
  if (rowCount === 0) throw errors.bucketNotFound();
  return { message: 'Successfully deleted' };
}

export async function emptyBucketRoute(s: Store, auth: RequestAuth, req: ReqLike, id: string) {
  await getBucket(s, auth, req, id);
  await emptyBucket(s, auth, req, id);
  // Storage empties in the background and says so; here it is already done when this answers.
  return { message: 'Empty bucket has been queued. Completion may take up to an hour.' };
}
