// An admin's HTML (an announcement's body) as plain text for a preview: the words of each block on a
// line of their own, so "<h2>Novidades</h2><p>Agora você…</p>" reads "Novidades", then "Agora você…",
// not "NovidadesAgora você…" as the DOM's textContent runs them together. Nothing is rendered or run:
// the HTML is only parsed (DOMParser makes an inert document).

/** Elements that start and end a line of their own. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary',
  'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul',
]);
/** Table cells sit side by side: a space between them. */
const CELLS = new Set(['td', 'th']);
/** Not text a reader sees. */
const SKIPPED = new Set(['script', 'style', 'template', 'noscript']);

/** The text of `html`, one line per block (spaces inside a line collapsed, empty lines dropped). */
export function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const lines: string[] = [];
  let line = '';
  const endLine = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text) lines.push(text);
    line = '';
  };
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      line += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const tag = (node as Element).localName;
    if (SKIPPED.has(tag)) return;
    if (tag === 'br') return endLine();
    const block = BLOCKS.has(tag);
    if (block) endLine();
    if (CELLS.has(tag)) line += ' ';
    node.childNodes.forEach(walk);
    if (block) endLine();
    else if (CELLS.has(tag)) line += ' ';
  };
  walk(doc.body);
  endLine();
  return lines.join('\n');
}
