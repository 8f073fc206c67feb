// Fixture buckets and storage.objects policies for the storage tests (useBackend({ sql: STORAGE_FIXTURE_SQL }),
// users from backend.jwtUser()), independent of the product's migrations.
import type { BackendLike } from './harness.ts';

export const STORAGE_FIXTURE_SQL = `
insert into storage.buckets (id, name, public) values ('fx-public', 'fx-public', true);
insert into storage.buckets (id, name, public) values ('fx-private', 'fx-private', false);
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
  values ('fx-limited', 'fx-limited', false, 1024, array['image/*', 'text/plain']);
insert into storage.buckets (id, name, public) values ('fx-dropbox', 'fx-dropbox', false);

-- fx-public: anyone reads; signed-in users write only under their own folder.
create policy fx_public_read on storage.objects for select using (bucket_id = 'fx-public');
create policy fx_public_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'fx-public' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- fx-private: each user sees and manages only their own folder.
create policy fx_private_select on storage.objects for select to authenticated
  using (bucket_id = 'fx-private' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy fx_private_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'fx-private' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy fx_private_update on storage.objects for update to authenticated
  using (bucket_id = 'fx-private' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy fx_private_delete on storage.objects for delete to authenticated
  using (bucket_id = 'fx-private' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- fx-limited: signed-in users read and write anything (the bucket's limits are what is tested).
create policy fx_limited_all on storage.objects for all to authenticated
  using (bucket_id = 'fx-limited') with check (bucket_id = 'fx-limited');

-- fx-dropbox: signed-in users may add files but not read, change or delete them.
create policy fx_dropbox_insert on storage.objects for insert to authenticated with check (bucket_id = 'fx-dropbox');
`;

/** Counts rows in storage.objects as the superuser (what really exists, regardless of RLS). */
export async function countObjects(backend: BackendLike, bucketId: string, name?: string): Promise<number> {
  const { rows } = await backend.server.ctx.engine.query<{ n: number }>(
    'select count(*)::int as n from storage.objects where bucket_id = $1 and ($2::text is null or name = $2)',
    [bucketId, name ?? null],
  );
  return rows[0].n;
}
