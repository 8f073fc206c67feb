// supabase-js imports functions-js for its `functions` getter, which put the edge-function client in
// every page's first download though only a few actions call functions. The SPA's build
// (vite.config.ts) hands supabase-js this stand-in: invoke() loads the real client on first use and
// forwards the call unchanged. Tests and scripts in Node use the real one.
import type { FunctionsClient as RealFunctionsClient } from '@supabase/functions-js';

type ClientOptions = ConstructorParameters<typeof RealFunctionsClient>[1];
type Invoke = RealFunctionsClient['invoke'];

export class FunctionsClient {
  private token: string | null = null;

  constructor(
    private readonly url: string,
    private readonly options: ClientOptions = {},
  ) {}

  setAuth(token: string): void {
    this.token = token;
  }

  async invoke(...args: Parameters<Invoke>): ReturnType<Invoke> {
    const { FunctionsClient: Real } = await import('@supabase/functions-js');
    const real = new Real(this.url, this.options);
    if (this.token) real.setAuth(this.token);
    return real.invoke(...args);
  }
}

// supabase-js re-exports these. The app must not use them from there (eslint.config.js forbids the
// import): they are stand-ins, never thrown; tell errors apart by `name` (e.g. 'FunctionsHttpError').
export class FunctionsError extends Error {}
export class FunctionsFetchError extends FunctionsError {}
export class FunctionsHttpError extends FunctionsError {}
export class FunctionsRelayError extends FunctionsError {}
export const FunctionRegion = { Any: 'any' } as const;
