// Text that people write and others read (comments): never HTML, and never a link that shows one
// address and opens another (issue 37, hole 9). The database already strips bidirectional controls on
// write (20261128000500_bidi_controls.sql); they are stripped here again, so no stored row written
// before that, nor any other source, can reorder what is shown.

/** Bidirectional controls: embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069) and the
 * invisible marks (U+200E, U+200F, U+061C). Legitimate Arabic or Hebrew letters are not controls. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_RE = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than the address. */
const TRAILING = /[.,;:!?)\]}]+$/;
/** Characters that would not read as themselves in the shown path: controls, invisible formatting
 * (zero-width joiners, soft hyphen), unassigned code points and any kind of space. */
const UNREADABLE = /[\p{C}\p{Z}]/u;

/** The path, query and fragment as a person reads them: percent escapes decoded (ç, ã), unless a
 * decoded character would hide or disguise itself; then as the browser sends them. */
function readablePath(url: URL): string {
  const encoded = url.pathname + url.search + url.hash;
  if (encoded === '/') return '';
  try {
    const decoded = decodeURI(encoded);
    return UNREADABLE.test(decoded) ? encoded : decoded;
  } catch {
    return encoded;
  }
}

/** What a link shows: the scheme and the host the browser will really open (`url.host`: lower case,
 * punycode `xn--` for a non-ASCII host, so a Cyrillic "е" or a "∕" inside the host cannot pass for
 * escola-demo's), never a user name or password, then the path. */
export function shownAddress(url: URL): string {
  return `${url.protocol}//${url.host}${readablePath(url)}`;
}

/**
 * Cuts a comment into text and http(s) links; anything else (javascript:, data:, www.) stays text.
 * A link's text is rebuilt from its parsed URL (shownAddress), not copied from what was typed, so what
 * the reader sees is where it goes; credentials are dropped from the target too.
 */
export function linkParts(input: string): TextPart[] {
  const text = withoutBidiControls(input);
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_RE)) {
    let raw = match[0];
    const trail = raw.match(TRAILING)?.[0] ?? '';
    if (trail) raw = raw.slice(0, raw.length - trail.length);
    const start = match.index;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.username = '';
    url.password = '';
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: shownAddress(url), href: url.href });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
