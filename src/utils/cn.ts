import { clsx, type ClassValue } from 'clsx';

// A small stand-in for tailwind-merge (not installed): for the utility groups our primitives set by
// default, a later class replaces an earlier one of the same group and variant, so
// `cn('p-6 shadow-sm', 'shadow-lg')` gives 'p-6 shadow-lg'.
const GROUPS: [RegExp, string][] = [
  [/^(?:flex|inline-flex|grid|inline-grid|block|inline-block|inline|hidden|contents)$/, 'display'],
  [/^size-/, 'size'],
  [/^w-/, 'w'],
  [/^h-/, 'h'],
  [/^min-w-/, 'min-w'],
  [/^max-w-/, 'max-w'],
  [/^min-h-/, 'min-h'],
  [/^max-h-/, 'max-h'],
  [/^shadow(?:-(?:none|2xs|xs|sm|md|lg|xl|2xl))?$/, 'shadow'],
  [/^rounded(?:-(?:none|xs|sm|md|lg|xl|2xl|3xl|full))?$/, 'rounded'],
  [/^text-(?:xs|sm|base|lg|xl|[2-9]xl)$/, 'font-size'],
  [/^font-(?:thin|light|normal|medium|semibold|bold|extrabold|black)$/, 'font-weight'],
  [/^gap-/, 'gap'],
  [/^p-/, 'p'],
  [/^px-/, 'px'],
  [/^py-/, 'py'],
  [/^pt-/, 'pt'],
  [/^pb-/, 'pb'],
  [/^pl-/, 'pl'],
  [/^pr-/, 'pr'],
];

function groupKey(token: string): string | null {
  const colon = token.lastIndexOf(':');
  const variant = colon >= 0 ? token.slice(0, colon + 1) : '';
  const utility = (colon >= 0 ? token.slice(colon + 1) : token).replace(/^!/, '');
  for (const [re, group] of GROUPS) if (re.test(utility)) return variant + group;
  return null;
}

// Merged lists by their joined input: a page renders the same few hundred lists again and again, and
// merging one tests each token against every group (a share of the home's first render on a phone,
// issue 38). Class lists come from the source, so they are few; the cap is for dynamic ones.
const merged = new Map<string, string>();
const MAX_MERGED = 2_000;

/** Joins class names (conditional classes allowed); later classes win within a utility group. */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs);
  let result = merged.get(joined);
  if (result === undefined) {
    result = merge(joined);
    if (merged.size >= MAX_MERGED) merged.clear();
    merged.set(joined, result);
  }
  return result;
}

function merge(joined: string): string {
  const tokens = joined.split(/\s+/).filter(Boolean);
  const keys = tokens.map(groupKey);
  const lastIndex = new Map<string, number>();
  keys.forEach((key, i) => {
    if (key) lastIndex.set(key, i);
  });
  return tokens.filter((_, i) => !keys[i] || lastIndex.get(keys[i]!) === i).join(' ');
}
