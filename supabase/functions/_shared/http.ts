// HTTP plumbing every function shares: CORS (the platform adds none), JSON answers and pt-BR errors,
// and a size-capped JSON body reader.

export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, x-webhook-secret, x-webhook-signature, asaas-access-token',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Max-Age': '86400',
};

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/** `{ error }` (and optional fields such as `field`) with a 4xx/5xx status. */
export function errorResponse(status: number, error: string, extra: Record<string, unknown> = {}): Response {
  return json({ error, ...extra }, status);
}

/** Thrown anywhere in a handler to answer with that status and pt-BR message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const MAX_BODY_BYTES = 64 * 1024;

/** A stream's bytes, refusing (HttpError 413 with `tooLarge`) once more than `maxBytes` arrive, whatever
 * a header declared: a request's body, or an object a function reads from Storage. */
export async function readAtMost(stream: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: string): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new HttpError(413, tooLarge);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return bytes;
}

/** Reads a JSON object body of at most `maxBytes`; anything else is an HttpError 400/413. */
export async function readJsonBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  return (await readJsonBodyWithBytes(req, maxBytes)).body;
}

/** readJsonBody, plus the exact bytes received (what a request signature covers). */
export async function readJsonBodyWithBytes(req: Request, maxBytes = MAX_BODY_BYTES): Promise<{ body: Record<string, unknown>; bytes: Uint8Array }> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new HttpError(413, 'Corpo da requisição muito grande');
  const bytes = req.body ? await readAtMost(req.body, maxBytes, 'Corpo da requisição muito grande') : new Uint8Array(0);
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new HttpError(400, 'JSON inválido');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'O corpo deve ser um objeto JSON');
  return { body: body as Record<string, unknown>, bytes };
}

/**
 * Wraps a handler: answers CORS preflights, refuses methods other than POST with 405 (and GET too,
 * unless the function answers it with `onGet`), turns an HttpError into its JSON answer and anything
 * else into a 500 without internals.
 */
export function serve(handler: (req: Request) => Promise<Response>, options: { onGet?: (req: Request) => Promise<Response> } = {}): void {
  Deno.serve(async (req) => {
    if (req.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    const answer = req.method === 'POST' ? handler : req.method === 'GET' ? options.onGet : undefined;
    if (!answer) return errorResponse(405, 'Método não permitido');
    try {
      return await answer(req);
    } catch (e) {
      if (e instanceof HttpError) return errorResponse(e.status, e.message, e.extra);
      console.error('unexpected error:', e instanceof Error ? e.message : String(e));
      return errorResponse(500, 'Erro interno. Tente novamente mais tarde.');
    }
  });
}

/** Constant-time string comparison for secrets (length is not hidden, content is). */
export function safeEqual(a: string, b: string): boolean {
  const enc = new TextEncoder();
  const x = enc.encode(a);
  const y = enc.encode(b);
  let diff = x.length ^ y.length;
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * The address the request came from, for what binds to or counts by it (the playback URL's IP binding,
 * the viewer's network in the sharing report, the card payer's address sent to Asaas). One rule for every
 * function, because the choice decides whether a caller can pick its own address:
 * - `cf-connecting-ip` first: the hosted project is reached through Cloudflare, which writes this header
 *   itself from the TCP peer and replaces any value the client sent (local-supabase writes it from the
 *   socket too, server.ts).
 * - else the LAST `x-forwarded-for` entry: a proxy appends the peer it saw, so the last entry is the one
 *   the proxy nearest us wrote; the first ones are whatever the client sent (a client can send
 *   `X-Forwarded-For: 200.200.200.1` and a proxy keeps it in front).
 * - else undefined (no binding, no network in the report).
 */
export function clientAddress(req: Request): string | undefined {
  const cloudflare = req.headers.get('cf-connecting-ip')?.trim();
  if (cloudflare) return cloudflare;
  const hops = (req.headers.get('x-forwarded-for') ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  return hops.at(-1);
}
