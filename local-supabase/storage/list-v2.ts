// POST /object/list-v2/{bucket} (storage-js listV2): Storage's cursor listing. Without a delimiter,
// every object under the prefix; with one, what sits directly under it, a folder being each first
// path segment past the prefix (its timestamps: the oldest object's, as Storage's search_v2 gives
// them when sorting by time). Runs as the caller, so the select policies decide, as they do upstream.
import { asCaller, type RequestAuth } from '../http.ts';
import { errors } from './errors.ts';
import { iso, type ReqLike, type Store } from './object-rows.ts';

interface ListV2Body {
  prefix?: unknown;
  limit?: unknown;
  cursor?: unknown;
  with_delimiter?: unknown;
  sortBy?: unknown;
}

type Column = 'name' | 'created_at' | 'updated_at';

/** Storage's continuation token: base64 of `l:<last name>`, `o:<order>`, `c:<column>`, `a:<column value>` lines. */
interface Cursor {
  startAfter: string;
  sortOrder?: string;
  sortColumn?: string;
  sortColumnAfter?: string;
}
const CURSOR_PARTS: Record<string, keyof Cursor> = {
  l: 'startAfter',
  o: 'sortOrder',
  c: 'sortColumn',
  a: 'sortColumnAfter',
};

function encodeCursor(c: Cursor): string {
  const lines = Object.entries(CURSOR_PARTS)
    .filter(([, k]) => c[k])
    .map(([p, k]) => `${p}:${c[k]}`);
  return Buffer.from(lines.join('\n')).toString('base64');
}

function decodeCursor(token: string): Cursor {
  const out: Cursor = { startAfter: '', sortOrder: 'asc' };
  for (const part of Buffer.from(token, 'base64').toString().split('\n')) {
    const m = part.match(/^(\S):(.*)/);
    if (!m || !(m[1] in CURSOR_PARTS)) throw errors.invalidParameter('continuation token');
    out[CURSOR_PARTS[m[1]]] = m[2];
  }
  return out;
}

/** The body as Storage's schema accepts it; anything else is a 400, as its validation answers. */
function parseBody(body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw errors.invalidRequest('body must be object');
  const b = body as ListV2Body;
  if (b.prefix !== undefined && typeof b.prefix !== 'string') throw errors.invalidRequest('body/prefix must be string');
  if (b.cursor !== undefined && typeof b.cursor !== 'string') throw errors.invalidRequest('body/cursor must be string');
  if (b.with_delimiter !== undefined && typeof b.with_delimiter !== 'boolean') {
    throw errors.invalidRequest('body/with_delimiter must be boolean');
  }
  if (b.limit !== undefined && (!Number.isInteger(b.limit) || (b.limit as number) < 1)) {
    throw errors.invalidRequest('body/limit must be an integer >= 1');
  }
  let sortBy: { column: Column; order?: string } | undefined;
  if (b.sortBy !== undefined) {
    const s = b.sortBy as { column?: unknown; order?: unknown } | null;
    if (typeof s !== 'object' || s === null || !['name', 'created_at', 'updated_at'].includes(s.column as string)) {
      throw errors.invalidRequest('body/sortBy/column must be equal to one of the allowed values');
    }
    if (s.order !== undefined && s.order !== 'asc' && s.order !== 'desc') {
      throw errors.invalidRequest('body/sortBy/order must be equal to one of the allowed values');
    }
    sortBy = { column: s.column as Column, order: s.order as string | undefined };
  }
  return {
    prefix: (b.prefix as string | undefined) ?? '',
    limit: Math.min((b.limit as number | undefined) ?? 1000, 1000),
    cursor: b.cursor ? decodeCursor(b.cursor as string) : undefined,
    delimited: b.with_delimiter === true,
    sortBy,
  };
}

interface Row {
  name: string;
  key?: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: unknown;
  folder: boolean;
}

export async function listObjectsV2(s: Store, auth: RequestAuth, req: ReqLike, bucketId: string, body: unknown) {
  const o = parseBody(body);
  const order = (o.cursor?.sortOrder || o.sortBy?.order) === 'desc' ? 'desc' : 'asc';
  const requested = o.cursor?.sortColumn || o.sortBy?.column;
  const column: Column = requested === 'created_at' || requested === 'updated_at' ? requested : 'name';
  const op = order === 'asc' ? '>' : '<';
  const startAfter = o.cursor?.startAfter ?? '';
  const levels = o.prefix ? o.prefix.split('/').length : 1;

  // $1 bucket, $2 prefix, $3 last name of the previous page, $4 page size + 1, $5 its time (time sorts).
  // Folders sort by name as their objects do ('a/' after 'a-b'); a cursor naming a folder resumes past it.
  const timeKey = (col: string) => `coalesce(date_trunc('milliseconds', ${col}), 'epoch'::timestamptz)`;
  const cursorTime = `coalesce(nullif($5, '')::timestamptz, 'epoch'::timestamptz)`;
  const where =
    column === 'name'
      ? `$3 = '' or sort_key collate "C" ${op} (case when exists (select 1 from matching m where starts_with(m.name, $3 || '/'))
           then $3 || '/' else $3 end)`
      : `$3 = '' or row(${timeKey(column)}, name collate "C") ${op} row(${cursorTime}, $3::text)`;
  const orderBy =
    column === 'name' ? `sort_key collate "C" ${order}` : `${timeKey(column)} ${order}, name collate "C" ${order}`;
  const entries = o.delimited
    ? `select left(name, length($2) + slash - 1) as name, null::uuid as id, null::jsonb as metadata,
         min(created_at) as updated_at, min(created_at) as created_at, null::timestamptz as last_accessed_at,
         left(name, length($2) + slash) as sort_key, true as folder
       from matching where slash > 0 group by 1, 7
       union all
       select name, id, metadata, updated_at, created_at, last_accessed_at, name, false from matching where slash = 0`
    : `select name, id, metadata, updated_at, created_at, last_accessed_at, name as sort_key, false as folder from matching`;
  const sql = `
    with matching as (
      select name, id, metadata, updated_at, created_at, last_accessed_at,
             position('/' in substr(name, length($2) + 1)) as slash
      from storage.objects where bucket_id = $1 and starts_with(name, $2)
    ), entries as (${entries})
    select name, id, metadata, folder, ${iso('updated_at')} as updated_at, ${iso('created_at')} as created_at,
           ${iso('last_accessed_at')} as last_accessed_at
    from entries where ${where} order by ${orderBy} limit $4`;
  const { rows } = await asCaller(s.ctx, auth, req, '/storage/v1', (tx) =>
    tx.query<Row>(sql, [
      bucketId,
      o.prefix,
      startAfter,
      o.limit + 1,
      ...(column === 'name' ? [] : [o.cursor?.sortColumnAfter ?? '']),
    ]),
  );

  const hasNext = rows.length > o.limit;
  const page = rows.slice(0, o.limit);
  const folders = [];
  const objects = [];
  for (const { folder, ...row } of page) {
    const key = o.delimited ? { key: row.name.split('/')[levels - 1] ?? '' } : {};
    if (folder) {
      // Sorted by name, Storage gives folders no timestamps (they come from the oldest object otherwise).
      const times = column === 'name' ? { updated_at: null, created_at: null } : {};
      folders.push({ ...key, ...row, ...times, name: `${row.name}/` });
    } else {
      objects.push({ ...key, ...row });
    }
  }
  let nextCursor: string | undefined;
  let nextCursorKey: string | undefined;
  if (hasNext) {
    const last = page[page.length - 1];
    const after = column === 'name' ? null : last[column];
    nextCursor = encodeCursor({
      startAfter: last.name,
      sortOrder: o.cursor?.sortOrder || o.sortBy?.order,
      sortColumn: requested,
      sortColumnAfter: after ? new Date(after).toISOString() : undefined,
    });
    nextCursorKey = last.name;
  }
  return { hasNext, nextCursor, nextCursorKey, folders, objects };
}
