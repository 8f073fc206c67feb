// An affiliate's link as a visitor meets it (issue 43): /<escola>/c/<curso>?afiliado=<código> keeps the code
// in this browser and goes on to the school's login (or, signed in, the course's checkout); once an account
// is signed in, the visit is counted once and the code is attached to the account, then forgotten. The
// checkout's URL with ?afiliado= does the same. A malformed code is never kept; a failure keeps it for the
// next page.
import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { sessionValue, signedIn } from '@/test/session';
import { readReferral } from '../lib/kept-referral';
import { AffiliateLinkLanding, AffiliateReferral } from './affiliate-referral';

const api = vi.hoisted(() => ({
  fetchCourseIdBySlug: vi.fn(),
  recordAffiliateClick: vi.fn(),
  attachAffiliateAttribution: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const visitor = sessionValue();
const student = signedIn({ isAdmin: false });
const LINK = '/escola-demo/c/marketing-digital?afiliado=ana12345';

describe('an affiliate link', () => {
  beforeEach(() => {
    localStorage.clear();
    api.fetchCourseIdBySlug.mockReset().mockResolvedValue('c1');
    api.recordAffiliateClick.mockReset().mockResolvedValue(true);
    api.attachAffiliateAttribution.mockReset().mockResolvedValue(true);
  });

  it("keeps a visitor's code and goes to the school's login", async () => {
    const view = renderScreen(<AffiliateLinkLanding schoolSlug="escola-demo" courseSlug="marketing-digital" />, {
      route: LINK,
      path: '/:school/c/:course',
      session: visitor,
    });
    await waitFor(() => expect(currentLocation(view)).toBe('/escola-demo'));
    expect(readReferral()).toMatchObject({ code: 'ana12345', courseSlug: 'marketing-digital', counted: false });
    expect(api.attachAffiliateAttribution).not.toHaveBeenCalled();
  });

  it("sends a signed-in account to the course's checkout", async () => {
    const view = renderScreen(<AffiliateLinkLanding schoolSlug="escola-demo" courseSlug="marketing-digital" />, {
      route: LINK,
      path: '/:school/c/:course',
      session: student,
    });
    await waitFor(() => expect(currentLocation(view)).toBe('/checkout/marketing-digital'));
    expect(readReferral()?.code).toBe('ana12345');
  });

  it('never keeps a malformed code', async () => {
    const view = renderScreen(<AffiliateLinkLanding schoolSlug="escola-demo" courseSlug="marketing-digital" />, {
      route: "/escola-demo/c/marketing-digital?afiliado=x'%3B--",
      path: '/:school/c/:course',
      session: visitor,
    });
    await waitFor(() => expect(currentLocation(view)).toBe('/escola-demo'));
    expect(readReferral()).toBeNull();
  });

  it('counts the visit once and attaches the code when an account signs in, then forgets it', async () => {
    renderScreen(<AffiliateLinkLanding schoolSlug="escola-demo" courseSlug="marketing-digital" />, {
      route: LINK,
      path: '/:school/c/:course',
      session: visitor,
    });
    await waitFor(() => expect(readReferral()).not.toBeNull());
    const { clickedAt } = readReferral()!;

    renderScreen(<AffiliateReferral />, { route: '/', session: student });
    await waitFor(() =>
      expect(api.attachAffiliateAttribution).toHaveBeenCalledWith(expect.anything(), 'ana12345', clickedAt),
    );
    expect(api.fetchCourseIdBySlug).toHaveBeenCalledWith(expect.anything(), 'marketing-digital');
    expect(api.recordAffiliateClick).toHaveBeenCalledTimes(1);
    expect(api.recordAffiliateClick).toHaveBeenCalledWith(expect.anything(), 'c1', 'ana12345');
    await waitFor(() => expect(readReferral()).toBeNull());
  });

  it("keeps the checkout URL's code for the signed-in buyer", async () => {
    renderScreen(<AffiliateReferral />, { route: '/checkout/marketing-digital?afiliado=ana12345', session: student });
    await waitFor(() =>
      expect(api.attachAffiliateAttribution).toHaveBeenCalledWith(expect.anything(), 'ana12345', expect.any(String)),
    );
    expect(api.recordAffiliateClick).toHaveBeenCalledWith(expect.anything(), 'c1', 'ana12345');
  });

  it('keeps the code when attaching fails, and the next page attaches it without counting the visit again', async () => {
    api.attachAffiliateAttribution.mockRejectedValueOnce(new Error('offline'));
    renderScreen(<AffiliateReferral />, { route: '/checkout/marketing-digital?afiliado=ana12345', session: student });
    await waitFor(() => expect(api.attachAffiliateAttribution).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(readReferral()).toMatchObject({ code: 'ana12345', counted: true }));

    renderScreen(<AffiliateReferral />, { route: '/', session: student });
    await waitFor(() => expect(api.attachAffiliateAttribution).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(readReferral()).toBeNull());
    expect(api.recordAffiliateClick).toHaveBeenCalledTimes(1);
  });

  it('does nothing for a visitor who is not signed in', async () => {
    renderScreen(<AffiliateReferral />, { route: '/checkout/marketing-digital?afiliado=ana12345', session: visitor });
    await new Promise((r) => setTimeout(r, 0));
    expect(readReferral()?.code).toBe('ana12345');
    expect(api.recordAffiliateClick).not.toHaveBeenCalled();
    expect(api.attachAffiliateAttribution).not.toHaveBeenCalled();
  });
});
