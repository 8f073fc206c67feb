// Rendering of admin-authored HTML/Markdown (lesson content, announcement bodies): only the
// allow-list of SPEC §5 survives; links get rel="noopener noreferrer".
import DOMPurify from 'dompurify';
import { marked } from 'marked';

export const ALLOWED_TAGS = [
  'p', 'br', 'strong', 'b', 'em', 'i', 'u',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'ul', 'ol', 'li', 'a', 'blockquote', 'code', 'pre', 'img',
];
export const ALLOWED_ATTR = ['href', 'target', 'rel', 'src', 'alt', 'title', 'class'];

/**
 * `class` is allowed (SPEC §5) but only with the classes content is styled with: text alignment and the
 * `language-*` marker of code blocks. Any other class (e.g. `fixed inset-0 z-50`) could lay staff HTML over
 * the page, so it is dropped.
 */
export const CONTENT_CLASSES = ['text-left', 'text-center', 'text-right', 'text-justify'];
const CODE_LANGUAGE_CLASS = /^language-[a-z0-9+#_-]{1,30}$/i;

export function allowedClasses(value: string): string {
  return value
    .split(/\s+/)
    .filter((c) => CONTENT_CLASSES.includes(c) || CODE_LANGUAGE_CLASS.test(c))
    .join(' ');
}

let purifier: ReturnType<typeof DOMPurify> | null = null;

function getPurifier() {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  // DOMPurify drops `target` even when allowed; remember it and put back a safe `_blank`.
  const hadTarget = new WeakSet<Element>();
  p.addHook('beforeSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('target')) hadTarget.add(node);
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    const classes = node.getAttribute('class');
    if (classes !== null) {
      const kept = allowedClasses(classes);
      if (kept) node.setAttribute('class', kept);
      else node.removeAttribute('class');
    }
    if (node.tagName === 'A') {
      if (hadTarget.has(node)) node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = p;
  return p;
}

/** Sanitises HTML to the SPEC §5 allow-list. */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  return getPurifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|\/|#)/i,
  });
}

/** Markdown (or plain HTML, which Markdown passes through) → sanitised HTML. */
export function renderMarkdown(markdown: string | null | undefined): string {
  if (!markdown) return '';
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return sanitizeHtml(html);
}
