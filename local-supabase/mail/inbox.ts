// /inbox: the local mailbox for the developer (an HTML page, newest first) and for tests and scripts
// (GET /inbox/api/messages?to=<email>, JSON). It exists only in local-supabase, which listens on
// loopback; it answers only requests addressed to a loopback host (no DNS rebinding) and sends no
// CORS headers, so a web page open in the developer's browser cannot read the links in it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler, ServerContext } from '../http.ts';
import type { MailMessage } from './mailbox.ts';
import { escapeHtml } from './templates.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackHost(req: IncomingMessage): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return LOOPBACK.has(name);
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  const payload = Buffer.from(body);
  res.writeHead(status, {
    'Content-Type': `${type}; charset=utf-8`,
    'Content-Length': String(payload.length),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...headers,
  });
  res.end(payload);
}

const dateFormat = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium' });

/** From, Reply-To and List-Unsubscribe (its http(s) address as a link), when the message has them. */
function extraMeta(m: MailMessage): string {
  const lines: string[] = [];
  if (m.from) lines.push(`De: ${escapeHtml(m.from)}`);
  if (m.reply_to) lines.push(`Responder para: ${escapeHtml(m.reply_to)}`);
  const unsubscribe = m.headers['list-unsubscribe'];
  if (unsubscribe) {
    const url = unsubscribe.match(/<(https?:[^>]+)>/)?.[1];
    lines.push(`List-Unsubscribe: ${url ? `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>` : escapeHtml(unsubscribe)}`);
  }
  return lines.map((l) => `\n  <p class="meta">${l}</p>`).join('');
}

/**
 * A whole HTML document (the functions' e-mails are) shown by its body's content, in a div with the
 * body's own style: embedded as is, its <body style> would restyle the inbox page itself.
 */
function bodyOf(html: string): string {
  const body = html.match(/<body([^>]*)>([\s\S]*?)(?:<\/body>|$)/i);
  if (!body) return html;
  const style = body[1]!.match(/\sstyle="([^"]*)"/i)?.[1];
  return style ? `<div style="${style}">${body[2]}</div>` : body[2]!;
}

function page(messages: MailMessage[], to: string | null): string {
  const items = messages
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">Para: <strong>${escapeHtml(m.to)}</strong> · <time datetime="${m.sent_at}">${dateFormat.format(new Date(m.sent_at))}</time></p>${extraMeta(m)}
  <div class="body">${m.html ? bodyOf(m.html) : `<pre>${escapeHtml(m.text)}</pre>`}</div>
  <details><summary>Texto simples</summary><pre>${escapeHtml(m.text)}</pre></details>
</article>`,
    )
    .join('\n');
  const empty = `<p class="empty">Nenhum e-mail${to ? ` para ${escapeHtml(to)}` : ''} ainda. Os e-mails de autenticação (como "Esqueci minha senha") e os enviados pelas edge functions (SMTP) aparecem aqui.</p>`;
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Caixa de entrada local</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 48rem; padding: 1rem; color: #0f172a; }
  header { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; justify-content: space-between; }
  h1 { font-size: 1.375rem; margin: .5rem 0; }
  form { display: flex; gap: .5rem; flex-wrap: wrap; }
  input { padding: .375rem .5rem; min-width: 14rem; }
  article { border: 1px solid #cbd5e1; border-radius: .5rem; padding: 1rem; margin: 1rem 0; }
  article h2 { font-size: 1.125rem; margin: 0 0 .25rem; }
  .meta { color: #475569; font-size: .875rem; margin: 0 0 .75rem; word-break: break-all; }
  .body { border-top: 1px solid #e2e8f0; padding-top: .5rem; overflow-wrap: anywhere; }
  .body h2 { font-size: 1rem; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; }
  details { margin-top: .5rem; color: #475569; }
  .empty, .note { color: #475569; }
</style>
</head>
<body>
<header>
  <h1>Caixa de entrada local</h1>
  <form method="get" action="/inbox">
    <label for="to">Destinatário</label>
    <input id="to" name="to" type="email" value="${escapeHtml(to ?? '')}" placeholder="todos">
    <button type="submit">Filtrar</button>
    <a href="/inbox">Atualizar</a>
  </form>
</header>
<p class="note">E-mails do backend local (local-supabase), guardados só em memória. Num projeto hospedado, o SMTP da plataforma envia os de autenticação e o provedor SMTP das funções (SMTP_*) os demais.</p>
${messages.length ? items : empty}
</body>
</html>
`;
}

export function createInboxHandler(ctx: ServerContext): Handler {
  return async (req, res, path, url) => {
    req.resume();
    if (!isLoopbackHost(req)) return send(res, 403, 'text/plain', 'The inbox only answers on localhost.');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'text/plain', 'Method not allowed', { Allow: 'GET' });
    const to = url.searchParams.get('to');
    const route = path.replace(/\/+$/, '') || '/';
    if (route === '/') {
      // The bodies are our own templates (auth's, and the functions' through SMTP, which only
      // loopback can reach) with escaped values; the CSP runs no script whatever a body holds.
      return send(res, 200, 'text/html', page(ctx.mailbox.list(to), to), {
        'Content-Security-Policy':
          "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'",
      });
    }
    if (route === '/api/messages') return send(res, 200, 'application/json', JSON.stringify(ctx.mailbox.list(to)));
    send(res, 404, 'text/plain', 'Not found');
  };
}
