// Listing and removing objects, as the caller's select and delete policies allow.
import { asCaller, type RequestAuth } from '../http.ts';
import { mapDbError } from './errors.ts';
import { allowDeleteQuery, iso, OBJECT_COLUMNS, removeVersions, type ObjectRow, type ReqLike, type Store } from './object-rows.ts';

/** DELETE /object/{bucket} {prefixes}: deletes what the caller's delete (and select) policies allow. */
export async function removeObjects(s: Store, auth: RequestAuth, req: ReqLike, bucketId: string, names: string[]) {
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1', async (tx) => {
    await allowDeleteQuery(tx);
    return tx
      .query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
        [bucketId, names],
      )
      .catch(mapDbError);
  });
  await removeVersions(s, rows.map((r) => r.version));
  return rows;
}

/** Empties a bucket of what the caller may delete. */
export async function emptyBucket(s: Store, auth: RequestAuth, req: ReqLike, bucketId: string): Promise<void> {
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1', async (tx) => {
    await allowDeleteQuery(tx);
    return tx.query<{ version: string | null }>('delete from storage.objects where bucket_id = $1 returning version', [bucketId]).catch(mapDbError);
  });
  await removeVersions(s, rows.map((r) => r.version));
}

export interface ListOptions {
  prefix?: string;
  limit?: number;
  offset?: number;
  search?: string;
  sortBy?: { column?: string; order?: string };
}

const SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/**
 * POST /object/list/{bucket}: the folders and files directly under `prefix` that the caller may
 * select, like Storage's storage.search(): folders first (id null), then files, sorted.
 */
export async function listObjects(s: Store, auth: RequestAuth, req: ReqLike, bucketId: string, o: ListOptions) {
  let prefix = typeof o.prefix === 'string' ? o.prefix : '';
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const levels = prefix ? prefix.split('/').length : 1;
  const limit = Math.min(Math.max(Number.isInteger(o.limit) ? Number(o.limit) : 100, 1), 1000);
  const offset = Math.max(Number.isInteger(o.offset) ? Number(o.offset) : 0, 0);
  const column = SORT_COLUMNS.has(o.sortBy?.column ?? '') ? o.sortBy!.column! : 'name';
  const order = o.sortBy?.order?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const search = typeof o.search === 'string' ? o.search : '';
  // column and order come from the fixed sets above; every value is a bound parameter.
  const orderBy = column === 'name' ? `name collate "C" ${order}` : `${column} ${order}, name collate "C" asc`;
  const sql = `
    with matching as (
      select * from storage.objects
      where bucket_id = $1 and name like $2 escape '\\' and name ilike $3 escape '\\'
    ), folders as (
      select path_tokens[$4] as name from matching
      where array_length(path_tokens, 1) > $4 group by 1
    ), listed as (
      select 0 as kind, name, null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
             null::timestamptz as last_accessed_at, null::jsonb as metadata from folders
      union all
      select 1, path_tokens[$4], id, updated_at, created_at, last_accessed_at, metadata from matching
      where array_length(path_tokens, 1) = $4
    )
    select name, id, ${iso('updated_at')} as updated_at, ${iso('created_at')} as created_at,
           ${iso('last_accessed_at')} as last_accessed_at, metadata
    from listed order by kind, ${orderBy} limit $5 offset $6`;
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1', (tx) =>
    tx.query(sql, [bucketId, escapeLike(prefix) + '%', escapeLike(prefix + search) + '%', levels, limit, offset]),
  );
  return rows;
}
