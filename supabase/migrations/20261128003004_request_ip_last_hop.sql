-- Issue 39, after 20261128001000 (the outside attacker's note on IP trust): private.request_ip() took
-- cf-connecting-ip, else the FIRST x-forwarded-for entry, which is whatever the client sent when a proxy
-- appends to it (a client's "X-Forwarded-For: 200.200.200.1" stays in front). It now takes the LAST entry,
-- the one the proxy nearest us wrote, as the edge functions' clientAddress (supabase/functions/_shared/
-- http.ts) does: one rule for the caller's address, written up in docs/video.md ("The viewer's address").
-- cf-connecting-ip still comes first (Cloudflare writes it on the hosted platform, replacing a client's).
set local lock_timeout = '5s';

create or replace function private.request_ip() returns text
language sql stable set search_path = '' as $$
  select coalesce(nullif(btrim(h ->> 'cf-connecting-ip'), ''),
                  nullif(btrim((regexp_split_to_array(h ->> 'x-forwarded-for', '\s*,\s*'))[
                    cardinality(regexp_split_to_array(h ->> 'x-forwarded-for', '\s*,\s*'))]), ''))
    from (select nullif(current_setting('request.headers', true), '')::json as h) r
$$;
