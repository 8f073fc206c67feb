// Calling our edge functions: the pt-BR `{ error }` of a refused call becomes the thrown message.
import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from './supabase';

export async function invokeFunction<T>(name: string, body: unknown): Promise<T> {
  const { data, error } = await supabase.functions.invoke(name, { body: body as Record<string, unknown> });
  if (error) {
    if (error instanceof FunctionsHttpError) {
      const payload = (await error.context.json().catch(() => null)) as { error?: string } | null;
      throw new Error(payload?.error || 'Não foi possível concluir a operação');
    }
    throw new Error(error.message || 'Sem conexão com o servidor');
  }
  return data as T;
}
