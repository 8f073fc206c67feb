import { describe, expect, it } from 'vitest';
import { renderMarkdown, sanitizeHtml } from './sanitize';

describe('sanitizeHtml', () => {
  it('keeps the allowed formatting', () => {
    const html = '<h2 class="text-center">Título</h2><p><strong>a</strong> <em>b</em> <u>c</u><br></p><ul><li>x</li></ul><blockquote>q</blockquote><pre><code>c</code></pre>';
    expect(sanitizeHtml(html)).toBe(html);
  });
  it('removes scripts, event handlers, styles and unknown tags', () => {
    const out = sanitizeHtml('<p onclick="x()" style="color:red">oi</p><script>alert(1)</script><iframe src="https://x"></iframe><div>d</div>');
    expect(out).toBe('<p>oi</p>d');
  });
  it('drops javascript: URLs', () => {
    const out = sanitizeHtml('<a href="javascript:alert(1)">x</a><img src="javascript:alert(1)" onerror="alert(1)">');
    expect(out).not.toContain('javascript');
    expect(out).not.toContain('onerror');
  });
  it('adds rel="noopener noreferrer" to links', () => {
    const out = sanitizeHtml('<a href="https://example.com" target="_blank" rel="opener">site</a>');
    expect(out).toContain('rel="noopener noreferrer"');
    expect(out).toContain('href="https://example.com"');
    expect(out).toContain('target="_blank"');
  });
  it('keeps images with alt and title', () => {
    expect(sanitizeHtml('<img src="https://x/a.png" alt="a" title="t">')).toBe('<img src="https://x/a.png" alt="a" title="t">');
  });
  it('keeps only the content classes: no class can lay the content over the page', () => {
    expect(sanitizeHtml('<p class="fixed inset-0 z-50 bg-white">x</p>')).toBe('<p>x</p>');
    expect(sanitizeHtml('<p class="text-center fixed">x</p>')).toBe('<p class="text-center">x</p>');
    expect(sanitizeHtml('<pre><code class="language-js">1</code></pre>')).toBe('<pre><code class="language-js">1</code></pre>');
    expect(sanitizeHtml('<img src="https://x/a.png" class="absolute top-0 w-screen h-screen">')).toBe('<img src="https://x/a.png">');
  });
  it('returns empty text for empty input', () => {
    expect(sanitizeHtml(null)).toBe('');
  });
});

describe('renderMarkdown', () => {
  it('renders Markdown then sanitises', () => {
    const out = renderMarkdown('# Aula 1\n\n**Importante** [link](https://example.com)\n\n<script>alert(1)</script>');
    expect(out).toContain('<h1>Aula 1</h1>');
    expect(out).toContain('<strong>Importante</strong>');
    expect(out).toContain('rel="noopener noreferrer"');
    expect(out).not.toContain('<script');
  });
});
