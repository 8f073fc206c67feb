// Settles the kept affiliate code for the signed-in account (components/affiliate-referral.tsx): counts the
// link's visit once, then attaches the code (the last click wins) and forgets it.
import type { DbClient } from '@/platform/db';
import { attachAffiliateAttribution, fetchCourseIdBySlug, recordAffiliateClick } from '../api/queries';
import { forgetReferral, markReferralCounted, readReferral } from './kept-referral';

/** One at a time: two effects of the same page must not count the visit twice. */
let settling: Promise<void> | null = null;

/** Counts the kept click once and attaches the code to the signed-in account; then forgets it. */
export function settleReferral(client: DbClient): Promise<void> {
  settling ??= (async () => {
    const kept = readReferral();
    if (!kept) return;
    if (!kept.counted) {
      const courseId = await fetchCourseIdBySlug(client, kept.courseSlug);
      if (courseId) await recordAffiliateClick(client, courseId, kept.code);
      markReferralCounted(kept);
    }
    await attachAffiliateAttribution(client, kept.code, kept.clickedAt);
    forgetReferral();
  })()
    // A failure keeps the code: the next page tries again.
    .catch(() => undefined)
    .finally(() => {
      settling = null;
    });
  return settling;
}
