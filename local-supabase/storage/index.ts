import type { Handler, ServerContext } from '../http.ts';
import { sendJson } from '../http.ts';

export function createStorageHandler(_ctx: ServerContext): Handler & { close?: () => Promise<void> } {
  return async (_req, res) => sendJson(res, 501, { message: 'not implemented yet' });
}
