// The lazy stand-ins the SPA's build hands supabase-js (./storage.ts, ./auth.ts) forward the
// calls they do not answer themselves to the real client once its package has loaded.

type AnyMethod = (...args: unknown[]) => unknown;

/**
 * An object whose every method call goes to `target()` when it exists, else to what `load()` resolves
 * to (the call then becomes asynchronous). `syncOnly` names methods that must answer at once: called
 * before the real client exists, they fail loudly instead of returning a promise the caller ignores.
 */
export function forwarder(
  target: () => object | null,
  load: () => Promise<object>,
  what: string,
  syncOnly: readonly string[] = [],
): object {
  return new Proxy(
    {},
    {
      get(_obj, method) {
        if (typeof method !== 'string' || method === 'then') return undefined; // never a thenable
        return (...args: unknown[]) => {
          const ready = target();
          if (ready) return (Reflect.get(ready, method) as AnyMethod).apply(ready, args);
          if (syncOnly.includes(method)) throw new Error(`${what}.${method} antes de o cliente carregar`);
          return load().then((real) => (Reflect.get(real, method) as AnyMethod).apply(real, args));
        };
      },
    },
  );
}
