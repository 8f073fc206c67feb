-- Issue 46, item 1: Configurações → E-mails saved once. school_email_settings (20261126000600) has
-- updated_at and the update trigger private.touch_timestamps(), which also keeps created_at
-- (new.created_at := old.created_at); the table had no created_at, so every update failed with
-- 'record "new" has no field "created_at"' and a school could never change its e-mail settings again.
-- Like every other table with that trigger, it gets created_at (rows saved so far: now, their first save
-- is unknown). A catalog test (tests/integration/product/trigger-columns-catalog.test.ts) keeps every
-- trigger's written columns present on its tables.
set local lock_timeout = '5s';

alter table public.school_email_settings
  add column created_at timestamptz not null default now();
