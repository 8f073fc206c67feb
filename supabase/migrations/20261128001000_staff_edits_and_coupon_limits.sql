-- Issue 37, what an outside tester still got through after 20261128000100 and 20261128000210:
-- 1. A password-only session rewrote a staff answer. An instructor with a verified factor posted at aal2
--    (stored author_role INSTRUCTOR, published); within the 15 minutes an aal1 session of the same account
--    changed the text, which kept the staff badge and skipped approval: the edit trusted the role stored
--    when the comment was written. Now rewriting a comment written as staff takes the role the session may
--    use now (private.staff_role_at: two-factor included), as writing it did; otherwise DC403 in pt-BR and
--    nothing changes. (Hiding, approving and marking answers already ask the caller's power now,
--    through private.comment_for_staff → is_course_staff; announcements go through staff_school_ids.)
-- 2. One account still held a limited coupon: one reservation per coupon AND COURSE let unpaid PIX charges
--    for two courses take a 2-use coupon. Now a buyer holds one pending reservation per coupon, whatever the
--    course: a new checkout with the coupon replaces the buyer's older pending ones (replaced_by, released;
--    create-asaas-charge removes their charges at Asaas, as for the same course before).
-- 3. Coupon codes could be guessed without limit through GET: PostgREST runs GET and HEAD /rpc/* (and a POST
--    to a stable or immutable function) in a READ ONLY transaction, where the miss of an unknown code cannot
--    be written (25006) while a known code answered its discount. Now every code look-up refuses a read-only
--    transaction first, with one answer whatever the code (25006: PostgREST's 405).
-- 4. The address budget locked out other buyers: 10 wrong codes of any account (of any school) made every
--    buyer behind that address (a school's lab, an office, a carrier's NAT) get 429 on the real code. Now the
--    address budget is per school (the buyer's) and address, and 30 a minute; per account it stays 10. The
--    client address is cf-connecting-ip first (Cloudflare sets it in front of the hosted platform and
--    overwrites a client's), then the leftmost x-forwarded-for.
set local lock_timeout = '5s';

-- ── 1. A staff answer is rewritten only with the power that wrote it ───────────────────────────
-- As in 20261126001400_discussions.sql (20261128000500 added a trigger of its own, not a change here), with
-- the staff check in the update branch.
create or replace function private.lesson_comments_validate() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_api boolean := coalesce(auth.role(), '') = 'authenticated';
  v_parent public.lesson_comments;
  v_school uuid;
  v_approval boolean;
  v_recent integer;
begin
  if tg_op = 'INSERT' then
    if new.parent_id is not null then
      select * into v_parent from public.lesson_comments c where c.id = new.parent_id;
      if not found then
        raise exception 'Este comentário não existe mais.' using errcode = 'DC400';
      end if;
      if v_parent.parent_id is not null then
        raise exception 'Só é possível responder a um comentário principal, não a uma resposta.' using errcode = 'DC400';
      end if;
      if new.lesson_id is null then
        new.lesson_id := v_parent.lesson_id;
        new.course_id := v_parent.course_id;
      elsif new.lesson_id <> v_parent.lesson_id then
        raise exception 'A resposta deve ficar na mesma aula do comentário.' using errcode = 'DC400';
      end if;
      if v_api and (v_parent.hidden_at is not null or v_parent.status <> 'published') then
        raise exception 'Este comentário não aceita respostas no momento.' using errcode = 'DC400';
      end if;
    end if;
    select c.school_id, s.comments_require_approval into v_school, v_approval
      from public.courses c left join public.school_discussion_settings s on s.school_id = c.school_id
     where c.id = new.course_id;
    new.author_role := private.staff_role_at(new.user_id, v_school);
    if v_api then
      new.created_at := now();
      new.edited_at := null;
      new.hidden_at := null;
      new.marked_answer_at := null;
      new.status := case when coalesce(v_approval, false) and new.author_role is null then 'pending' else 'published' end;
      if new.author_role is null then
        -- At most 5 comments a minute per student; concurrent inserts of one author queue here.
        perform pg_advisory_xact_lock(hashtextextended('lesson_comments:' || new.user_id::text, 0));
        select count(*) into v_recent from public.lesson_comments c
         where c.user_id = new.user_id and c.created_at > now() - interval '1 minute';
        if v_recent >= 5 then
          raise exception 'Você comentou muitas vezes em pouco tempo. Aguarde um minuto.' using errcode = 'DC429';
        end if;
      end if;
    end if;
    return new;
  end if;

  -- UPDATE. The API may only change the text (column grant); the author, within 15 minutes.
  if new.parent_id is distinct from old.parent_id then
    raise exception 'Uma resposta não muda de comentário.' using errcode = 'DC400';
  end if;
  if new.comment is distinct from old.comment then
    if v_api then
      if old.hidden_at is not null then
        raise exception 'Este comentário foi ocultado pela equipe.' using errcode = '42501';
      end if;
      if now() > old.created_at + interval '15 minutes' then
        raise exception 'Só é possível editar um comentário nos primeiros 15 minutos.' using errcode = 'DC410';
      end if;
      -- Written as staff (the badge, no approval): the new text speaks for the school too, so the session must
      -- hold a staff role now, as its author wrote it (aal2 for an account with a verified factor).
      if old.author_role is not null
         and private.staff_role_at(new.user_id, (select c.school_id from public.courses c where c.id = new.course_id)) is null then
        if coalesce(auth.jwt() ->> 'aal', '') <> 'aal2' and private.has_verified_factor() then
          raise exception 'Confirme a verificação em duas etapas para editar uma resposta da equipe.' using errcode = 'DC403';
        end if;
        raise exception 'Só a equipe da escola pode editar uma resposta da equipe.' using errcode = 'DC403';
      end if;
      -- With approval on, an edited student comment waits for approval again.
      if old.author_role is null and old.status = 'published' and coalesce((
           select s.comments_require_approval from public.courses c join public.school_discussion_settings s on s.school_id = c.school_id
            where c.id = new.course_id), false) then
        new.status := 'pending';
      end if;
    end if;
    new.edited_at := now();
  end if;
  return new;
end $$;

-- ── 4. The client address: cf-connecting-ip, then the leftmost x-forwarded-for ─────────────────
-- On the hosted platform Cloudflare sets cf-connecting-ip to the connecting address, replacing a client's;
-- x-forwarded-for gets Cloudflare's append to whatever the client sent, so its leftmost entry may be the
-- client's own invention. local-supabase sets both from the peer and drops what a client wrote.
create or replace function private.request_ip() returns text
language sql stable set search_path = '' as $$
  select coalesce(nullif(btrim(h ->> 'cf-connecting-ip'), ''),
                  nullif(btrim(split_part(h ->> 'x-forwarded-for', ',', 1)), ''))
    from (select nullif(current_setting('request.headers', true), '')::json as h) r
$$;

-- 'ip:<school>:<address>' (the address key is at most 100 characters).
alter table private.coupon_code_misses drop constraint coupon_code_misses_subject_length,
  add constraint coupon_code_misses_subject_length check (length(subject) <= 160);
-- Rows of the old 'ip:<address>' shape would count for nobody; they would expire within the minute anyway.
delete from private.coupon_code_misses where subject like 'ip:%';

-- ── 3 and 4. Every look-up of a code goes through the guess limit ─────────────────────────────
-- As in 20261128000210_coupon_abuse.sql, with: a read-only transaction is refused before anything is looked
-- up (a miss could not be counted there); the address budget is the buyer's school's, 30 a minute; the
-- account's stays 10.
create or replace function private.guarded_checkout_price(p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean, p_ip text)
returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_code text := nullif(btrim(coalesce(p_coupon_code, '')), '');
  v_address text := private.address_key(p_ip);
  v_school uuid;
  v_subjects text[];
  v_subject text;
  v_quote jsonb;
begin
  -- PostgREST's GET and HEAD (and a call of a stable function): one answer for every code, nothing read.
  if current_setting('transaction_read_only') = 'on' then
    raise exception 'A consulta de cupom só é feita por POST.' using errcode = '25006';
  end if;
  if v_code is not null then
    select p.school_id into v_school from public.profiles p where p.id = p_user_id;
    v_subjects := array_remove(array['user:' || p_user_id::text,
                                     'ip:' || coalesce(v_school::text, '-') || ':' || v_address], null);
    foreach v_subject in array v_subjects loop
      perform pg_advisory_xact_lock(hashtextextended('coupon_code_misses:' || v_subject, 0));
    end loop;
    if exists (select 1 from private.coupon_code_misses m
                where m.subject = any (v_subjects) and m.missed_at > now() - interval '1 minute'
                group by m.subject
               having count(*) >= case when m.subject like 'user:%' then 10 else 30 end) then
      raise exception 'Muitas tentativas de cupom. Aguarde um minuto e tente de novo.' using errcode = 'PT429';
    end if;
  end if;
  v_quote := private.checkout_price(p_user_id, p_course_id, v_code, p_with_bump, false);
  if (v_quote ->> 'coupon_unknown')::boolean then
    delete from private.coupon_code_misses where missed_at < now() - interval '1 minute';
    insert into private.coupon_code_misses (subject, code_hash)
    select s, md5(upper(v_code)) from unnest(v_subjects) s
    on conflict (subject, code_hash) do update set missed_at = excluded.missed_at;
  end if;
  return v_quote;
end $$;

-- ── 2. The price of a checkout: the buyer's own pending reservations of the coupon do not count ──
-- As in 20261128000210_coupon_abuse.sql, but the reservations left out are all of the buyer's pending
-- charges with this coupon, whatever their course (the new charge replaces them), not only this course's.
create or replace function private.checkout_price(p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean, p_lock boolean)
returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_course public.courses;
  v_bump record;
  v_coupon public.coupons;
  v_error text;
  v_discount numeric(10, 2) := 0;
  v_subtotal numeric(10, 2);
  v_code text := nullif(btrim(coalesce(p_coupon_code, '')), '');
  v_taken integer;
  v_taken_by_buyer integer;
begin
  select * into v_course from public.courses c
   where c.id = p_course_id and c.status = 'PUBLISHED'
     and c.school_id = (select p.school_id from public.profiles p where p.id = p_user_id);
  if not found then
    raise exception 'Curso não encontrado.' using errcode = '42501';
  end if;
  if v_course.price < 5 then
    raise exception 'Este curso não está à venda.' using errcode = '22023';
  end if;

  -- The bump, when it is useful: a published course of the school the buyer does not have.
  select b.bump_course_id as course_id, c.title, c.description, c.thumbnail_url, c.price as list_price, b.price
    into v_bump
    from public.course_bumps b join public.courses c on c.id = b.bump_course_id
   where b.course_id = v_course.id and c.status = 'PUBLISHED'
     and not exists (select 1 from public.enrollments e
                      where e.user_id = p_user_id and e.course_id = c.id and e.status = 'ACTIVE'
                        and (e.expires_at is null or e.expires_at > now()));
  if p_with_bump and v_bump.course_id is null then
    raise exception 'Esta oferta não está disponível.' using errcode = '22023';
  end if;
  v_subtotal := v_course.price + case when p_with_bump then v_bump.price else 0 end;

  if v_code is not null then
    if p_lock then
      select * into v_coupon from public.coupons cp
       where cp.school_id = v_course.school_id and upper(cp.code) = upper(v_code)
         and cp.is_active and (cp.valid_from is null or cp.valid_from <= now()) and (cp.valid_until is null or cp.valid_until > now())
         for update;
    else
      select * into v_coupon from public.coupons cp
       where cp.school_id = v_course.school_id and upper(cp.code) = upper(v_code)
         and cp.is_active and (cp.valid_from is null or cp.valid_from <= now()) and (cp.valid_until is null or cp.valid_until > now());
    end if;
    if v_coupon.id is null then
      v_error := 'Cupom não encontrado.';
    elsif not v_coupon.all_courses
          and not exists (select 1 from public.coupon_courses cc where cc.coupon_id = v_coupon.id and cc.course_id = v_course.id) then
      v_error := 'Este cupom não vale para este curso.';
    else
      select count(*), count(*) filter (where u.user_id = p_user_id)
        into v_taken, v_taken_by_buyer
        from public.coupon_uses u join public.payments p on p.id = u.payment_id
       where u.coupon_id = v_coupon.id
         and (u.status = 'used'
              or (u.status = 'reserved' and p.due_date >= (now() at time zone 'America/Sao_Paulo')::date
                  and not (u.user_id = p_user_id and p.status = 'PENDING')));
      if v_coupon.max_uses is not null and v_taken >= v_coupon.max_uses then
        v_error := 'Este cupom esgotou.';
      elsif v_coupon.max_uses_per_buyer is not null and v_taken_by_buyer >= v_coupon.max_uses_per_buyer then
        v_error := 'Você já usou este cupom o máximo de vezes permitido.';
      else
        -- The course on sale, not the bump.
        v_discount := case when v_coupon.kind = 'percent' then round(v_course.price * v_coupon.amount / 100, 2)
                           else least(v_coupon.amount, v_course.price) end;
        if v_discount <= 0 then
          -- A percentage too small for this price (0,01% of R$ 10,00 rounds to nothing).
          v_error := 'Este cupom não dá desconto neste curso.';
        elsif v_subtotal - v_discount < 5 then
          v_error := 'Com este cupom o valor fica abaixo do mínimo de R$ 5,00.';
          v_discount := 0;
        end if;
      end if;
    end if;
  end if;

  return jsonb_build_object(
    'course', jsonb_build_object('id', v_course.id, 'title', v_course.title, 'price', v_course.price),
    'bump', case when v_bump.course_id is null then null else jsonb_build_object(
              'course_id', v_bump.course_id, 'title', v_bump.title, 'description', v_bump.description,
              'thumbnail_url', v_bump.thumbnail_url, 'list_price', v_bump.list_price, 'price', v_bump.price) end,
    'with_bump', coalesce(p_with_bump, false),
    'coupon', case when v_discount > 0 then jsonb_build_object(
                'code', v_coupon.code, 'kind', v_coupon.kind, 'amount', v_coupon.amount, 'discount', v_discount) end,
    'coupon_id', case when v_discount > 0 then v_coupon.id end,
    'coupon_unknown', v_code is not null and v_coupon.id is null,
    'coupon_error', v_error,
    'subtotal', v_subtotal, 'discount', v_discount, 'total', v_subtotal - v_discount);
end $$;

-- ── 2. create_checkout_payment: the buyer's older pending charges with this coupon, any course ──
-- As in 20261128000210_coupon_abuse.sql, with the replacement no longer limited to this course.
create or replace function public.create_checkout_payment(
  p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean, p_billing_type text,
  p_installment_count integer, p_environment text, p_integration_id uuid, p_expected_total numeric default null
) returns public.payments
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_quote jsonb;
  v_payment public.payments;
  v_course_discount numeric(10, 2);
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  v_quote := private.checkout_price(p_user_id, p_course_id, p_coupon_code, coalesce(p_with_bump, false), true);
  if v_quote ->> 'coupon_error' is not null then
    raise exception '%', v_quote ->> 'coupon_error' using errcode = '22023';
  end if;
  v_course_discount := (v_quote ->> 'discount')::numeric;
  -- The page showed a total; if it changed since, say so instead of charging another value.
  if p_expected_total is not null and p_expected_total <> (v_quote ->> 'total')::numeric then
    raise exception 'O preço do curso mudou. Recarregue a página para ver o valor atual.' using errcode = 'PT409';
  end if;

  insert into public.payments (school_id, user_id, course_id, course_title, provider, environment, integration_id,
                               billing_type, value, installment_count, coupon_id, coupon_code, discount, due_date)
  select c.school_id, p_user_id, c.id,
         left(c.title || case when coalesce(p_with_bump, false) then ' + ' || (v_quote #>> '{bump,title}') else '' end, 300),
         'asaas', p_environment, p_integration_id, p_billing_type, (v_quote ->> 'total')::numeric,
         coalesce(p_installment_count, 1), private.uuid_or_null(v_quote ->> 'coupon_id'), v_quote #>> '{coupon,code}',
         v_course_discount,
         (now() at time zone 'America/Sao_Paulo')::date + case when p_billing_type = 'BOLETO' then 3 else 1 end
    from public.courses c where c.id = p_course_id
  returning * into v_payment;

  insert into public.payment_items (payment_id, school_id, kind, course_id, title, list_price, discount, value)
  values (v_payment.id, v_payment.school_id, 'course', p_course_id, v_quote #>> '{course,title}',
          (v_quote #>> '{course,price}')::numeric, v_course_discount, (v_quote #>> '{course,price}')::numeric - v_course_discount);
  if coalesce(p_with_bump, false) then
    insert into public.payment_items (payment_id, school_id, kind, course_id, title, list_price, value)
    values (v_payment.id, v_payment.school_id, 'bump', (v_quote #>> '{bump,course_id}')::uuid, v_quote #>> '{bump,title}',
            (v_quote #>> '{bump,price}')::numeric, (v_quote #>> '{bump,price}')::numeric);
  end if;
  if v_payment.coupon_id is not null then
    insert into public.coupon_uses (coupon_id, payment_id, user_id, school_id, discount)
    values (v_payment.coupon_id, v_payment.id, p_user_id, v_payment.school_id, v_course_discount);
    with replaced as (
      update public.payments p set replaced_by = v_payment.id
       where p.user_id = p_user_id and p.coupon_id = v_payment.coupon_id
         and p.id <> v_payment.id and p.status = 'PENDING' and p.replaced_by is null
      returning p.id
    )
    update public.coupon_uses u set status = 'released'
      from replaced r where u.payment_id = r.id and u.status = 'reserved';
  end if;
  return v_payment;
end $$;
