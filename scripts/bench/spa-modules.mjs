// Lets a node bench import the SPA's query functions (src/features/*/api/queries.ts) as they are:
// `@/…` resolves to src/ (Vite's alias; tsx reads only the root tsconfig.json, which has no paths), and
// `@/platform/functions` (the browser's supabase-js client behind it reads import.meta.env and the page's
// URL) becomes a stand-in, since the benches never call an edge function. Register it before the
// first src/ module loads: every bench npm script passes `--import ./scripts/bench/register-spa-modules.mjs`.
const SRC = new URL('../../src/', import.meta.url);
const FUNCTIONS_STAND_IN = `data:text/javascript,${encodeURIComponent(`
export class FunctionCallError extends Error {}
export async function invokeFunction(name) { throw new FunctionCallError('edge function ' + name + ' is not available in the bench'); }
`)}`;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@/platform/functions') return { url: FUNCTIONS_STAND_IN, shortCircuit: true };
  if (specifier.startsWith('@/')) return nextResolve(new URL(specifier.slice(2), SRC).href, context);
  return nextResolve(specifier, context);
}
