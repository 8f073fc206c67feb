// An affiliate's link (issue 43, docs/affiliates.md "Attribution"): `/<escola>/c/<curso>?afiliado=<código>`
// and the checkout's URL with the same parameter keep the code in this browser (lib/kept-referral.ts); once
// an account is signed in, the visit is counted (record_affiliate_click, which needs the course's id: a
// visitor not signed in cannot read the school's courses) and the code becomes the account's attribution.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '@/platform/session';
import { keepReferral, readReferral } from '../lib/kept-referral';

/** In the member area: keeps a checkout URL's `?afiliado=` and settles the kept code for the signed-in account. */
export function AffiliateReferral() {
  const { pathname, search } = useLocation();
  const { user } = useSession();
  useEffect(() => {
    const checkout = /^\/checkout\/([^/]+)$/.exec(pathname);
    const code = new URLSearchParams(search).get('afiliado');
    if (checkout?.[1] && code) keepReferral(code, decodeURIComponent(checkout[1]));
    if (user && readReferral()) void import('../api/hooks').then((m) => m.settleKeptReferral()); // on demand: most visits keep no code
  }, [pathname, search, user]);
  return null;
}

/** `/<escola>/c/<curso>?afiliado=<código>`: keeps the code, then the course's checkout (signed in) or the school's login. */
export function AffiliateLinkLanding({ schoolSlug, courseSlug }: { schoolSlug: string; courseSlug: string }) {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { user, initializing } = useSession();
  const code = new URLSearchParams(search).get('afiliado');
  useEffect(() => {
    if (initializing) return;
    keepReferral(code, courseSlug);
    void navigate(user ? `/checkout/${encodeURIComponent(courseSlug)}` : `/${encodeURIComponent(schoolSlug)}`, {
      replace: true,
    });
  }, [initializing, user, code, courseSlug, schoolSlug, navigate]);
  return null;
}
