// School and course slugs (SPEC §5): lower-case, spaces to hyphens; accents and anything the
// database's slug check refuses are dropped as the user types.

export function normalizeSlug(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-{2,}/g, '-');
}

/** A slug ready to save: normalized and without hyphens at the ends. */
export function finalSlug(value: string): string {
  return normalizeSlug(value).replace(/^-+|-+$/g, '');
}
