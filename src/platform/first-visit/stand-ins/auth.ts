// supabase-js builds its auth client in its constructor, which put auth-js (~18 KB brotli, most of
// supabase-js's chunk) in every signed-in page's first download, though a returning student's first
// paint only needs the session supabase-js stored. The SPA's build (vite.config.ts) hands supabase-js
// this stand-in: until the real client has loaded, getSession() and onAuthStateChange() answer from
// the stored session while auth-js itself would (valid beyond its refresh margin, no auth link in the
// URL). Everything else, and everything once the page has settled (when the real client loads, to
// refresh the token and follow other tabs), goes to auth-js unchanged. Tests and scripts in Node use
// the real one.
import type {
  AuthChangeEvent,
  GoTrueClientOptions,
  AuthClient as RealAuthClientClass,
  Session,
  Subscription,
} from '@supabase/auth-js';
import { forwarder } from './forwarder';
import { whenPageSettled } from '@/platform/first-visit/page-settled';

// supabase-js re-exports auth-js; its error classes are the real ones (the client that throws them
// imports this same module).
export * from '@supabase/auth-js/dist/module/lib/errors';

type RealAuthClient = InstanceType<typeof RealAuthClientClass>;
/** A listener, with its subscription on the real client and the access token the stand-in told it. */
type Entry = { callback: Listener; real?: Subscription; told?: string };
type Listener = (event: AuthChangeEvent, session: Session | null) => void | Promise<void>;

/** auth-js's EXPIRY_MARGIN_MS: its getSession() refreshes a session closer than this to its expiry. */
const EXPIRY_MARGIN_MS = 90_000;

/** An e-mailed link's tokens, code or error in the URL: auth-js must read them (detectSessionInUrl). */
function authLinkInUrl(): boolean {
  return (
    /(^#|&)(access_token|error)=/.test(window.location.hash) || new URLSearchParams(window.location.search).has('code')
  );
}

/** The session auth-js stored, when its own getSession() would return it as it is; else null. */
export function usableStoredSession(options: GoTrueClientOptions): Session | null {
  if (
    typeof window === 'undefined' ||
    options.storage ||
    options.persistSession === false ||
    !options.storageKey ||
    authLinkInUrl()
  )
    return null;
  try {
    const stored = JSON.parse(localStorage.getItem(options.storageKey) ?? 'null') as Partial<Session> | null;
    if (!stored?.access_token || !stored.refresh_token || !stored.user || typeof stored.expires_at !== 'number')
      return null;
    return stored.expires_at * 1000 - Date.now() > EXPIRY_MARGIN_MS ? (stored as Session) : null;
  } catch {
    return null;
  }
}

export class AuthClient {
  private real: RealAuthClient | null = null;
  private loading: Promise<RealAuthClient> | null = null;
  private readonly listeners = new Map<string, Entry>();
  readonly mfa: object;

  constructor(private readonly options: GoTrueClientOptions) {
    this.mfa = forwarder(
      () => this.real?.mfa ?? null,
      () => this.load().then((real) => real.mfa),
      'auth.mfa',
    );
    // The token's refresh and other tabs' sign-ins and sign-outs are auth-js's: it loads once the
    // page's own downloads are done.
    if (typeof window !== 'undefined') whenPageSettled(() => void this.load());
    const others = forwarder(
      () => this.real,
      () => this.load(),
      'auth',
    );
    return new Proxy(this, {
      get: (target, prop, receiver) =>
        prop in target ? Reflect.get(target, prop, receiver) : Reflect.get(others, prop),
    });
  }

  private load(): Promise<RealAuthClient> {
    this.loading ??= import('@supabase/auth-js').then(
      async ({ AuthClient: Real }) => {
        const real = new Real(this.options);
        // Listeners join once it has read the stored session: its start-up SIGNED_IN for that session
        // (what a client made at the page's start told before anyone listened) would otherwise reach
        // them late, after the person acted (a sign-out clicked meanwhile would lose its destination).
        await real.initialize();
        this.real = real;
        for (const entry of this.listeners.values()) this.attach(real, entry);
        return real;
      },
      (error: unknown) => {
        this.loading = null; // offline: the next call tries again
        throw error;
      },
    );
    return this.loading;
  }

  /** Every change from now on; the initial session again only when it is not the one already told. */
  private attach(real: RealAuthClient, entry: Entry): void {
    entry.real ??= real.onAuthStateChange((event, session) => {
      if (event === 'INITIAL_SESSION' && entry.told !== undefined && session?.access_token === entry.told) return;
      return entry.callback(event, session);
    }).data.subscription;
  }

  async getSession(): ReturnType<RealAuthClient['getSession']> {
    const stored = this.loading ? null : usableStoredSession(this.options);
    if (stored) return { data: { session: stored }, error: null };
    return (await this.load()).getSession();
  }

  onAuthStateChange(callback: Listener): { data: { subscription: Subscription } } {
    const id = crypto.randomUUID();
    const entry: Entry = { callback };
    this.listeners.set(id, entry);
    const subscription: Subscription = {
      id,
      callback,
      unsubscribe: () => {
        this.listeners.delete(id);
        entry.real?.unsubscribe();
      },
    };
    if (this.real) this.attach(this.real, entry);
    else {
      const stored = this.loading ? null : usableStoredSession(this.options);
      // As auth-js does, the initial session comes after the call returns.
      if (stored)
        queueMicrotask(() => {
          if (!this.listeners.has(id) || entry.real) return;
          entry.told = stored.access_token;
          void callback('INITIAL_SESSION', stored);
        });
      else void this.load();
    }
    return { data: { subscription } };
  }
}
