-- A lesson's video poster (issue 38): one frame of the uploaded video, captured in the staff's browser at
-- upload and stored in the public course-thumbnails bucket beside the school's other course images. A
-- student opening a lesson for the first time then sees that frame while the video itself is still on
-- its way: the HTML's inline script preloads it as soon as the lesson's row names it (docs/first-visit.md).
--
-- Only the object path is kept ({school_id}/{name}.jpg in course-thumbnails), never a URL: the SPA builds
-- the URL of this API's Storage, so a poster cannot send the school's students to another host. The
-- path's folder must be the lesson's school (the school's staff can only write there anyway). A new
-- video_url without a new poster drops the old one: a YouTube link or another file must not show the
-- previous video's frame.
set local lock_timeout = '5s';

alter table public.lesson_contents
  add column video_poster text
    constraint lesson_contents_video_poster_path
      check (video_poster ~ '^[0-9a-f-]{36}/[A-Za-z0-9._-]{1,200}\.jpg$');

-- Staff write it as they write the video (the lesson_contents policies decide who); updates are granted by
-- column (20261122000400_rls.sql).
grant update (video_poster) on public.lesson_contents to authenticated;

comment on column public.lesson_contents.video_poster is
  'A frame of the uploaded video shown until it plays: an object path in course-thumbnails ({school_id}/{name}.jpg).';

create or replace function private.lesson_poster_follows_video() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and new.video_url is distinct from old.video_url
     and new.video_poster is not distinct from old.video_poster then
    new.video_poster := null;
  end if;
  if new.video_poster is not null
     and split_part(new.video_poster, '/', 1) <> (
       select c.school_id::text from public.lessons l join public.courses c on c.id = l.course_id
       where l.id = new.lesson_id) then
    raise exception 'the poster must be an image of the lesson''s school' using errcode = '23514';
  end if;
  return new;
end $$;
revoke all on function private.lesson_poster_follows_video() from public;

create trigger lesson_contents_poster before insert or update of video_url, video_poster on public.lesson_contents
  for each row execute function private.lesson_poster_follows_video();
