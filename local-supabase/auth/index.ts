// /auth/v1: the subset of GoTrue that supabase-js (auth-js v2) and this product use.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler, ServerContext } from '../http.ts';
import { HttpError, sendJson } from '../http.ts';
import { publicJwks } from '../jwt.ts';
import { getUser, logout, signup, signupAnonymously, token, updateUser } from './account.ts';
import {
  createUser,
  deleteUserById,
  deleteUserFactor,
  getUserById,
  listUserFactors,
  listUsers,
  updateUserById,
  updateUserFactor,
} from './admin.ts';
import { AuthError, internal, notFound, sendAuthError, unprocessable } from './errors.ts';
import { factorRoute } from './factors.ts';
import { generateLink } from './generate-link.ts';
import { requireAdmin, requireUser } from './guard.ts';
import { invite } from './invite.ts';
import { otp } from './otp.ts';
import { createAnonymousSignInLimit, createEmailLimits, createRequestLimits } from './rate-limit.ts';
import { settled } from './background.ts';
import { reauthenticate } from './reauthenticate.ts';
import { recover, resend } from './recovery.ts';
import { MIN_PASSWORD_LENGTH, optString, readAuthBody } from './validate.ts';
import { verifyLink, verifyOtp } from './verify.ts';

const settings = (ctx: ServerContext) => ({
  external: { email: true, phone: false, anonymous_users: ctx.config.anonymousSignIns.enabled },
  disable_signup: false,
  // `[auth.email] enable_confirmations`: a new address must open the e-mailed link first.
  mailer_autoconfirm: !ctx.config.authEmail.enableConfirmations,
  phone_autoconfirm: false,
  sms_provider: '',
  saml_enabled: false,
  password_min_length: MIN_PASSWORD_LENGTH,
});

export function createAuthHandler(ctx: ServerContext): Handler & { close?: () => Promise<void> } {
  const emailLimits = createEmailLimits(ctx.config.authEmail);
  const requestLimits = createRequestLimits(ctx.config.authRateLimits);
  // Second-factor codes get a budget of their own, of token_verifications' size (GoTrue limits them per IP too).
  const factorLimits = createRequestLimits(ctx.config.authRateLimits);
  const anonymousLimit = createAnonymousSignInLimit(ctx.config.anonymousSignIns.perHourPerIp);
  async function route(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const key = `${method} ${path.replace(/\/+$/, '') || '/'}`;
    switch (key) {
      case 'GET /health':
        return sendJson(res, 200, { version: 'local-supabase', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' });
      case 'GET /settings':
        return sendJson(res, 200, settings(ctx));
      case 'GET /.well-known/jwks.json':
        return sendJson(res, 200, publicJwks(ctx.config), { 'Cache-Control': 'public, max-age=600' });
      case 'POST /signup': {
        const body = await readAuthBody(req);
        // GoTrue: neither an e-mail nor a phone is an anonymous sign-in, with its own switch and limit.
        if (!optString(body, 'email') && !optString(body, 'phone')) return signupAnonymously(ctx, req, res, body, anonymousLimit);
        requestLimits.take('signInSignUps', req);
        return signup(ctx, req, res, url, emailLimits, body);
      }
      case 'POST /token':
        // Password sign-ins share the sign-up budget; refreshes have their own, larger one.
        if (url.searchParams.get('grant_type') === 'password') requestLimits.take('signInSignUps', req);
        else if (url.searchParams.get('grant_type') === 'refresh_token') requestLimits.take('tokenRefresh', req);
        return token(ctx, req, res, url);
      case 'GET /user':
        return getUser(ctx, req, res);
      case 'PUT /user':
        return updateUser(ctx, req, res, url, emailLimits, requestLimits);
      case 'GET /reauthenticate':
        return reauthenticate(ctx, req, res, emailLimits);
      case 'GET /user/identities/authorize':
        // Linking another provider (GoTrue's requireManualLinkingEnabled): local-supabase has no
        // OAuth providers to link, as a project with `enable_manual_linking = false`.
        await requireUser(req, ctx);
        throw unprocessable('manual_linking_disabled', 'Manual linking is disabled');
      case 'POST /logout':
        return logout(ctx, req, res, url);
      case 'POST /otp':
        // A passwordless sign-in (or sign-up) shares the sign-up budget, as GoTrue's /otp limiter does.
        requestLimits.take('signInSignUps', req);
        return otp(ctx, req, res, url, emailLimits);
      case 'POST /invite':
        await requireAdmin(req, ctx);
        return invite(ctx, req, res, url, emailLimits);
      case 'POST /admin/generate_link':
        await requireAdmin(req, ctx);
        return generateLink(ctx, req, res, url);
      case 'POST /recover':
        return recover(ctx, req, res, url, emailLimits);
      case 'POST /resend':
        return resend(ctx, req, res, url, emailLimits);
      case 'GET /verify':
        requestLimits.take('tokenVerifications', req);
        return verifyLink(ctx, req, res, url);
      case 'POST /verify':
        requestLimits.take('tokenVerifications', req);
        return verifyOtp(ctx, req, res);
    }
    const factor = factorRoute(path, method);
    if (factor) {
      if (/\/verify\/?$/.test(path)) factorLimits.take('tokenVerifications', req);
      return factor(ctx, req, res);
    }
    if (/^\/user\/identities\/[^/]+\/?$/.test(path) && method === 'DELETE') {
      await requireUser(req, ctx);
      throw unprocessable('manual_linking_disabled', 'Manual linking is disabled');
    }
    const factors = /^\/admin\/users\/([^/]+)\/factors(?:\/([^/]+))?\/?$/.exec(path);
    if (factors) {
      await requireAdmin(req, ctx);
      const [, id, factorId] = factors as unknown as [string, string, string | undefined];
      if (!factorId && method === 'GET') return listUserFactors(ctx, req, res, id);
      if (factorId && method === 'DELETE') return deleteUserFactor(ctx, req, res, id, factorId);
      if (factorId && method === 'PUT') return updateUserFactor(ctx, req, res, id, factorId);
      throw new AuthError(405, 'method_not_allowed', 'Method not allowed');
    }
    const admin = /^\/admin\/users(?:\/([^/]+))?\/?$/.exec(path);
    if (admin) {
      await requireAdmin(req, ctx);
      // Ids are UUIDs: no decoding needed, anything else is refused by the handlers.
      const id = admin[1] ?? null;
      if (!id && method === 'GET') return listUsers(ctx, req, res, url);
      if (!id && method === 'POST') return createUser(ctx, req, res);
      if (id && method === 'GET') return getUserById(ctx, req, res, id);
      if (id && method === 'PUT') return updateUserById(ctx, req, res, id);
      if (id && method === 'DELETE') return deleteUserById(ctx, req, res, id);
      throw new AuthError(405, 'method_not_allowed', 'Method not allowed');
    }
    throw notFound('not_found', 'Not found');
  }

  const handler: Handler = async (req, res, path, url) => {
    try {
      await route(req, res, path, url);
    } catch (e) {
      if (res.headersSent) throw e;
      if (e instanceof AuthError) return sendAuthError(req, res, e);
      if (e instanceof HttpError) throw e; // e.g. 413 from readBody: the server sends it
      ctx.log(`auth: unexpected error on ${req.method} ${path}: ${(e as Error).stack ?? e}`);
      sendAuthError(req, res, internal('Unexpected failure, please check server logs for more information'));
    }
  };
  // The e-mails still being written after their answer went out are finished before the database closes.
  return Object.assign(handler, { close: () => settled(ctx) });
}
