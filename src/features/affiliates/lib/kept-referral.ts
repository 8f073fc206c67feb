// The affiliate code of the last link this browser opened, kept in first-party storage until the account
// it signs in with takes it (attach_affiliate_attribution; docs/affiliates.md "Attribution"). Only the code,
// the course's slug and when the link was opened: nothing about the visitor.
const KEY = 'plataforma:afiliado';
const CODE = /^[a-z0-9]{8}$/;

export interface KeptReferral {
  code: string;
  courseSlug: string;
  clickedAt: string;
  /** The click was counted (record_affiliate_click), so a reload does not count it again. */
  counted: boolean;
}

/** Keeps a link's `?afiliado=` (the last link wins); a malformed code is ignored. */
export function keepReferral(code: string | null, courseSlug: string, now = new Date()): void {
  if (!code || !CODE.test(code)) return;
  const kept: KeptReferral = { code, courseSlug, clickedAt: now.toISOString(), counted: false };
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage refused (private mode, full): the purchase is simply not attributed.
  }
}

export function readReferral(): KeptReferral | null {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? 'null') as KeptReferral | null;
    return kept && typeof kept.code === 'string' && CODE.test(kept.code) ? kept : null;
  } catch {
    return null;
  }
}

export function markReferralCounted(kept: KeptReferral): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...kept, counted: true }));
  } catch {
    // As above.
  }
}

/** The account took the code: nothing left to attach. */
export function forgetReferral(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // As above.
  }
}
