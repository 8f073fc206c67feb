import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text';

describe('htmlToText', () => {
  it('puts each block on a line of its own: a heading does not run into the text (issue 46, item 9)', () => {
    expect(htmlToText('<h2>Novidades</h2><p>Agora você pode baixar o <strong>certificado</strong>.</p>')).toBe(
      'Novidades\nAgora você pode baixar o certificado.',
    );
  });

  it('line breaks, list items and table cells are separated; inline words keep their spaces', () => {
    expect(htmlToText('<p>Aula ao vivo<br>sexta, 19h</p><ul><li>Excel</li><li>Power BI</li></ul>')).toBe('Aula ao vivo\nsexta, 19h\nExcel\nPower BI');
    expect(htmlToText('<table><tr><td>Dia</td><td>Tema</td></tr><tr><td>Sexta</td><td>PROCV</td></tr></table>')).toBe('Dia Tema\nSexta PROCV');
    expect(htmlToText('<p>Leia o <a href="https://exemplo.com">guia</a>   <em>antes</em></p>')).toBe('Leia o guia antes');
  });

  it('plain text stays as it is, empty blocks leave no empty lines, and scripts are not text', () => {
    expect(htmlToText('Só texto, sem HTML')).toBe('Só texto, sem HTML');
    expect(htmlToText('<p></p><p> </p><div><p>Oi</p></div><script>alert(1)</script><style>p{}</style>')).toBe('Oi');
  });
});
