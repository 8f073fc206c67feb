// Fixture buckets, storage.objects policies and signed-in clients for the storage tests. They are
// created here through the superuser engine, independent of the product's migrations.
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { signJwt } from '../../local-supabase/jwt.ts';
import { LOCAL_JWT_SECRET } from '../../local-supabase/config.ts';
import { ANON_KEY, type TestBackend } from './harness.ts';

export const FIXTURE_SQL = `
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

export async function installStorageFixtures(backend: TestBackend): Promise<void> {
  await backend.server.ctx.engine.exec(FIXTURE_SQL);
}

export interface TestUser {
  id: string;
  jwt: string;
  client: SupabaseClient;
}

/** A signed-in user without the auth endpoint: a JWT minted with the local secret. */
export async function makeUser(backend: TestBackend): Promise<TestUser> {
  const id = randomUUID();
  const jwt = await signJwt({ sub: id, role: 'authenticated', aud: 'authenticated' }, LOCAL_JWT_SECRET, 3600);
  const client = createClient(backend.url, ANON_KEY, {
    global: { headers: { Authorization: `Bearer ${jwt}` } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  return { id, jwt, client };
}

/** Counts rows in storage.objects as the superuser (what really exists, regardless of RLS). */
export async function countObjects(backend: TestBackend, bucketId: string, name?: string): Promise<number> {
  const { rows } = await backend.server.ctx.engine.query<{ n: number }>(
    'select count(*)::int as n from storage.objects where bucket_id = $1 and ($2::text is null or name = $2)',
    [bucketId, name ?? null],
  );
  return rows[0].n;
}
