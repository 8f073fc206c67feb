import { describe, expect, it } from 'vitest';
import { linkParts } from './thread';

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
});
