// Calling our edge functions: the pt-BR `{ error }` of a refused call becomes the thrown message, with
// the HTTP status and the whole JSON body kept for callers that need more (e.g. an existing user's id).
import { supabase } from './supabase';

export class FunctionCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly body: Record<string, unknown> | null,
  ) {
    super(message);
  }
}

export async function invokeFunction<T>(name: string, body: unknown): Promise<T> {
  const { data, error } = await supabase.functions.invoke(name, { body: body as Record<string, unknown> });
  if (error) {
    // By name: the build's supabase-js re-exports a stand-in class (src/platform/first-visit/stand-ins/functions.ts).
    if (error.name === 'FunctionsHttpError') {
      const response = error.context as Response;
      const payload = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      throw new FunctionCallError(typeof payload?.error === 'string' ? payload.error : 'Não foi possível concluir a operação', response.status, payload);
    }
    throw new FunctionCallError(error.message || 'Sem conexão com o servidor', null, null);
  }
  return data as T;
}
