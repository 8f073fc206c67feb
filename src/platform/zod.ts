// zod for the app, configured once: `jitless` skips zod's probe for `new Function`, which a strict
// Content-Security-Policy (scripts/vite/security-headers.ts) reports as a violation even though zod
// catches the error. Import z from here, never from 'zod' (eslint.config.js enforces it).
import { z } from 'zod';

z.config({ jitless: true });

export { z };
