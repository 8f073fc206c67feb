// Registers spa-modules.mjs (the `@/` alias and the edge-function stand-in) before the bench's own
// modules load. Every `npm run bench:*` that runs a node script passes it, in package.json:
// `node --import tsx --import ./scripts/bench/register-spa-modules.mjs scripts/bench/<name>.ts`, so a
// bench imports the SPA's query functions (src/features/*/api/queries.ts) with plain static imports.
import { register } from 'node:module';

register('./spa-modules.mjs', import.meta.url);
