// "At most once per day per school" (SPEC §4, §9): closing the popup stores today's date under the
// school; it shows again on another day. Dates are the device's local calendar day.

export const SEEN_KEY_PREFIX = 'plataforma:announcement-seen:';

export function seenKey(schoolId: string): string {
  return `${SEEN_KEY_PREFIX}${schoolId}`;
}

/** yyyy-mm-dd of the local calendar day. */
export function localDay(date: Date = new Date()): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function storage(): StorageLike | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function seenToday(schoolId: string, now: Date = new Date(), store: StorageLike | null = storage()): boolean {
  try {
    return store?.getItem(seenKey(schoolId)) === localDay(now);
  } catch {
    return false;
  }
}

export function markSeenToday(schoolId: string, now: Date = new Date(), store: StorageLike | null = storage()): void {
  try {
    store?.setItem(seenKey(schoolId), localDay(now));
  } catch {
    /* storage unavailable: the popup may show again */
  }
}
