// The frame every school e-mail shares (issue 22): the school's logo or name on its primary colour, the
// message, a button, and a footer with the school's WhatsApp and, for messages a student may turn off,
// the link that turns that kind off. Table layout and inline styles: what e-mail clients render alike.
// Every value is escaped here; message builders pass plain text.

export interface SchoolBrand {
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
  supportWhatsapp: string | null;
}

export interface EmailContent {
  subject: string;
  /** The first line a mail client previews. */
  preheader: string;
  heading: string;
  /** Paragraphs of plain text. */
  paragraphs: string[];
  /** Label/value lines (amounts, codes, dates), shown as a list. */
  details?: [string, string][];
  /** A code to copy (PIX copia e cola, boleto's digitable line), shown in a monospace box. */
  code?: { label: string; value: string };
  action?: { label: string; url: string };
  /** After the button: e.g. how long a link works. */
  note?: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** A school colour only when it is a plain hex colour; anything else falls back to the platform's blue. */
const color = (c: string | null) => (c && /^#[0-9a-f]{6}$/i.test(c) ? c : '#2563eb');
/** Links only to http(s) addresses. */
const safeUrl = (u: string) => (/^https?:\/\//i.test(u) ? u : '#');
const whatsappLink = (phone: string) => `https://wa.me/${phone.replace(/\D/g, '')}`;

export function renderEmail(brand: SchoolBrand, content: EmailContent, unsubscribeUrl: string | null): RenderedEmail {
  const primary = color(brand.primaryColor);
  const e = escapeHtml;
  const header = brand.logoUrl && /^https:\/\//i.test(brand.logoUrl)
    ? `<img src="${e(brand.logoUrl)}" alt="${e(brand.name)}" height="40" style="height:40px;max-width:200px;border:0">`
    : `<span style="font-size:20px;font-weight:700;color:#ffffff">${e(brand.name)}</span>`;
  const details = content.details?.length
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:16px 0;width:100%">${content.details
        .map(([k, v]) => `<tr><td style="padding:4px 12px 4px 0;color:#64748b;white-space:nowrap">${e(k)}</td><td style="padding:4px 0;font-weight:600">${e(v)}</td></tr>`)
        .join('')}</table>`
    : '';
  const code = content.code
    ? `<p style="margin:16px 0 4px;color:#64748b">${e(content.code.label)}</p><p style="margin:0 0 16px;padding:12px;background:#f1f5f9;border-radius:8px;font-family:monospace;font-size:13px;word-break:break-all">${e(content.code.value)}</p>`
    : '';
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${e(safeUrl(content.action.url))}" style="display:inline-block;padding:12px 24px;background:${primary};color:#ffffff;text-decoration:none;border-radius:8px;font-weight:600">${e(content.action.label)}</a></p>`
    : '';
  const footer = [
    brand.supportWhatsapp ? `Dúvidas? Fale com a escola pelo <a href="${e(whatsappLink(brand.supportWhatsapp))}" style="color:${primary}">WhatsApp</a>.` : '',
    unsubscribeUrl ? `Não quer mais receber este tipo de e-mail? <a href="${e(safeUrl(unsubscribeUrl))}" style="color:#64748b">Descadastrar</a>.` : '',
  ].filter(Boolean).map((line) => `<p style="margin:4px 0">${line}</p>`).join('');
  const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<span style="display:none;max-height:0;overflow:hidden">${e(content.preheader)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:${primary};padding:20px 24px">${header}</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">
<h1 style="margin:0 0 16px;font-size:20px">${e(content.heading)}</h1>
${content.paragraphs.map((p) => `<p style="margin:0 0 12px">${e(p)}</p>`).join('\n')}
${details}${code}${action}${content.note ? `<p style="margin:0;color:#64748b;font-size:13px">${e(content.note)}</p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e2e8f0;color:#64748b;font-size:12px">${footer}<p style="margin:4px 0">${e(brand.name)}</p></td></tr>
</table></td></tr></table></body></html>`;
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.details ?? []).map(([k, v]) => `${k}: ${v}`),
    ...(content.details?.length ? [''] : []),
    ...(content.code ? [`${content.code.label}:`, content.code.value, ''] : []),
    ...(content.action ? [`${content.action.label}: ${safeUrl(content.action.url)}`, ''] : []),
    ...(content.note ? [content.note, ''] : []),
    '--',
    brand.name,
    ...(brand.supportWhatsapp ? [`WhatsApp: ${whatsappLink(brand.supportWhatsapp)}`] : []),
    ...(unsubscribeUrl ? [`Descadastrar: ${safeUrl(unsubscribeUrl)}`] : []),
  ].join('\n');
  return { subject: content.subject, html, text };
}
