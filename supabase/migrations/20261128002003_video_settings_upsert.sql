-- Issue 39, after 20261128002000: the settings screen saves school_video_settings with an upsert (insert
-- on conflict (school_id) do update), as it saves school_discussion_settings, and PostgREST's upsert sets
-- every column it sends, school_id included: the column-limited update grant refused it (42501). Staff get
-- update on school_id too; the policies still hold the row to a school they are staff of.
set local lock_timeout = '5s';

grant update (school_id) on public.school_video_settings to authenticated;
