import { describe, expect, it } from 'vitest';
import { linkParts, withoutBidiControls } from './user-text';

const RLO = '\u202E';
const links = (text: string) => linkParts(text).filter((p) => p.kind === 'link');
/** The host a reader takes from a link's text: what follows "//" up to the first "/", "?" or "#". */
const shownHost = (shown: string) => shown.replace(/^https?:\/\//, '').split(/[/?#]/)[0];

describe('linkParts', () => {
  it('links http and https addresses, leaving sentence punctuation outside', () => {
    expect(linkParts('Veja http://a.com/x, e (https://b.com.br/y).')).toEqual([
      { kind: 'text', text: 'Veja ' },
      { kind: 'link', text: 'http://a.com/x', href: 'http://a.com/x' },
      { kind: 'text', text: ', e (' },
      { kind: 'link', text: 'https://b.com.br/y', href: 'https://b.com.br/y' },
      { kind: 'text', text: ').' },
    ]);
  });

  it('leaves every other scheme, and bare domains, as text', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'www.exemplo.com', 'ftp://exemplo.com/a', 'JaVaScRiPt://%0aalert(1)']) {
      expect(linkParts(text)).toEqual([{ kind: 'text', text }]);
    }
  });

  it('an address hidden behind a javascript: prefix is linked as its own http address only', () => {
    expect(linkParts('javascript:https://x.com')).toEqual([
      { kind: 'text', text: 'javascript:' },
      { kind: 'link', text: 'https://x.com', href: 'https://x.com/' },
    ]);
  });

  it('a Cyrillic letter in the host shows the real host, in punycode', () => {
    // "е" below is U+0435 CYRILLIC SMALL LETTER IE.
    const [link] = links('https://escola-dеmo.com.br/curso');
    expect(link).toEqual({ kind: 'link', text: 'https://xn--escola-dmo-rsi.com.br/curso', href: 'https://xn--escola-dmo-rsi.com.br/curso' });
  });

  it('a lookalike slash in the host ("∕", "⁄") shows the whole real host', () => {
    const [division] = links('https://escola-demo.com.br\u2215aulas.evil.example/x');
    expect(division).toEqual({
      kind: 'link',
      text: 'https://escola-demo.com.xn--braulas-df0d.evil.example/x',
      href: 'https://escola-demo.com.xn--braulas-df0d.evil.example/x',
    });
    const [fraction] = links('https://escola-demo.com.br\u2044aulas.evil.example');
    expect(shownHost(fraction!.text)).toBe(new URL(fraction!.href).host);
    expect(fraction!.text).not.toContain('\u2044');
  });

  it('a right-to-left override is removed, inside the address and around it', () => {
    expect(linkParts(`Aula: ${RLO}https://evil.example/?rb.moc.omed-alocse//:sptth`)).toEqual([
      { kind: 'text', text: 'Aula: ' },
      { kind: 'link', text: 'https://evil.example/?rb.moc.omed-alocse//:sptth', href: 'https://evil.example/?rb.moc.omed-alocse//:sptth' },
    ]);
    // Escaped in the path, it stays escaped in what is shown.
    expect(links(`https://evil.example/%E2%80%AE/x`)[0]!.text).toBe('https://evil.example/%E2%80%AE/x');
  });

  it('a user name before "@" is neither shown nor sent: the host is the one after it', () => {
    expect(links('https://escola-demo.com.br:senha@evil.example/')[0]).toEqual({ kind: 'link', text: 'https://evil.example', href: 'https://evil.example/' });
  });

  it('every shown host is the host the link opens', () => {
    const tricks = [
      'https://escola-dеmo.com.br',
      'https://escola-demo.com.br\u2215x.evil.example',
      'https://escola-demo.com.br@evil.example/',
      'https://ESCOLA-DEMO.com.br./a',
      'https://escola-demo.com.br\u200B.evil.example/',
      'https://0x7f.1:8080/x',
      `${RLO}https://evil.example/#rb.moc.omed-alocse//:sptth`,
    ];
    for (const text of tricks) {
      const [link] = links(text);
      expect(shownHost(link!.text), text).toBe(new URL(link!.href).host);
    }
  });

  it('readable paths keep their accents; spaces and invisible characters stay escaped', () => {
    expect(links('https://escola-demo.com.br/aulas/introdução?q=função#seção')[0]).toEqual({
      kind: 'link',
      text: 'https://escola-demo.com.br/aulas/introdução?q=função#seção',
      href: 'https://escola-demo.com.br/aulas/introdu%C3%A7%C3%A3o?q=fun%C3%A7%C3%A3o#se%C3%A7%C3%A3o',
    });
    expect(links('https://exemplo.com.br/a%20b%E2%80%8Bc')[0]!.text).toBe('https://exemplo.com.br/a%20b%E2%80%8Bc');
    expect(links('https://exemplo.com.br/%E0%A4%A')[0]!.text).toBe('https://exemplo.com.br/%E0%A4%A');
  });

  it("links to the school's own pages and to ordinary sites show what was written", () => {
    for (const text of ['http://localhost:4174/course/c1/lesson/l1#comentario-x', 'https://exemplo.com.br/procv', 'https://www.youtube.com/watch?v=abc&t=10s']) {
      expect(links(text)).toEqual([{ kind: 'link', text, href: text }]);
    }
  });
});

describe('withoutBidiControls', () => {
  it('removes every embedding, override, isolate and mark', () => {
    const controls = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C';
    expect(withoutBidiControls(`a${controls}b`)).toBe('ab');
  });

  it('keeps accents, Arabic and Hebrew letters, and joiners', () => {
    for (const text of ['José da Conceição', 'مرحبا، كيف حالك؟', 'שלום עולם', 'می‌خواهم', '👩‍💻']) {
      expect(withoutBidiControls(text)).toBe(text);
    }
  });
});
