// GoTrue's error responses. auth-js sends `X-Supabase-Api-Version: 2024-01-01` and then reads
// `{code, message}`; older clients get the initial shape `{code: <status>, error_code, msg}`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../http.ts';

const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = '2024-01-01';

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra fields GoTrue adds to some errors (weak_password reasons). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: string, msg: string) => new AuthError(400, code, msg);
export const unprocessable = (code: string, msg: string) => new AuthError(422, code, msg);
export const forbidden = (code: string, msg: string) => new AuthError(403, code, msg);
export const notFound = (code: string, msg: string) => new AuthError(404, code, msg);
export const tooManyRequests = (code: string, msg: string) => new AuthError(429, code, msg);
export const internal = (msg: string) => new AuthError(500, 'unexpected_failure', msg);

export const invalidCredentials = () => badRequest('invalid_credentials', 'Invalid login credentials');

export function weakPassword(): AuthError {
  return new AuthError(422, 'weak_password', 'Password should be at least 6 characters.', {
    weak_password: { reasons: ['length'] },
  });
}

/** The API version the client asked for, when it is a date on or after 2024-01-01 (GoTrue echoes it). */
function requestedApiVersion(req: IncomingMessage): string | null {
  const raw = req.headers[API_VERSION_HEADER];
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return null;
  return value >= API_VERSION_2024 ? API_VERSION_2024 : null;
}

export function sendAuthError(req: IncomingMessage, res: ServerResponse, e: AuthError): void {
  const version = requestedApiVersion(req);
  if (version) {
    sendJson(res, e.status, { code: e.code, message: e.message, ...e.extra }, { 'X-Supabase-Api-Version': version });
  } else {
    sendJson(res, e.status, { code: e.status, error_code: e.code, msg: e.message, ...e.extra });
  }
}
