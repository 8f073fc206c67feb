-- Issue 39, after 20261124000500 (the outside attacker's finding): download-material stamps a PDF for
-- every call, and stamping costs by the file's objects, not its pages (one within-limits apostila took
-- 7 s of the function); nothing bounded how many one account asked (12 stamps in a row, no refusal).
-- Now an account stamps at most 60 PDFs an hour: download-material asks note_material_stamp (as the caller)
-- before it stamps, and answers 429 "Muitos downloads seguidos. Tente de novo em alguns minutos." when it
-- says no. Each stamp keeps a row for an hour (the account's older rows go at its next call).
set local lock_timeout = '5s';

create table private.material_stamps (
  user_id uuid not null references public.profiles (id) on delete cascade,
  stamped_at timestamptz not null default now()
);
comment on table private.material_stamps is 'One row per PDF material stamped for an account in the last hour (download-material''s limit of 60 an hour).';
create index material_stamps_user_id_stamped_at_idx on private.material_stamps (user_id, stamped_at);
alter table private.material_stamps enable row level security;
revoke all on private.material_stamps from anon, authenticated, service_role;

-- Counts one stamp for the caller and answers true, or false (nothing counted) after 60 in the last hour.
create function public.note_material_stamp() returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v_user uuid := auth.uid();
begin
  perform private.refuse_while_password_change_pending();
  if v_user is null then
    raise exception 'Não autenticado' using errcode = '42501';
  end if;
  -- One call of the account at a time, so parallel downloads cannot all pass at 59.
  perform pg_advisory_xact_lock(hashtextextended('material_stamp:' || v_user::text, 0));
  delete from private.material_stamps where user_id = v_user and stamped_at <= now() - interval '1 hour';
  if (select count(*) from private.material_stamps where user_id = v_user) >= 60 then
    return false;
  end if;
  insert into private.material_stamps (user_id) values (v_user);
  return true;
end $$;
revoke all on function public.note_material_stamp() from public, anon, authenticated, service_role;
grant execute on function public.note_material_stamp() to authenticated;
