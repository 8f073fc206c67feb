// The SPA never uses Supabase Realtime, yet supabase-js builds a RealtimeClient in its constructor,
// which puts realtime-js and its Phoenix socket (~15 KB gzip) in every page's first download. The
// app's build (vite.config.ts) resolves '@supabase/realtime-js' to this stand-in instead; tests and
// scripts in Node keep the real package. Subscribing fails loudly rather than silently.
 
export class RealtimeClient {
  constructor(_endpoint: string, _options?: unknown) {}
  setAuth(_token?: string | null): Promise<void> {
    return Promise.resolve();
  }
  channel(): never {
    throw new Error('Realtime não está habilitado neste app');
  }
  getChannels(): unknown[] {
    return [];
  }
  removeChannel(): Promise<'ok'> {
    return Promise.resolve('ok');
  }
  removeAllChannels(): Promise<'ok'[]> {
    return Promise.resolve([]);
  }
  disconnect(): void {}
}
