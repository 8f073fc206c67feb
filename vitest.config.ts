import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const alias = { '@': path.resolve(import.meta.dirname, 'src') };

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'jsdom',
          globals: true,
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          setupFiles: ['src/test/setup.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts', 'local-supabase/**/*.test.ts'],
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // Each file starts its own local-supabase; PGlite is single-threaded, so two at a time on 2 cores.
          maxWorkers: 2,
          // supabase-js wants a WebSocket global (realtime), which Node 20 has only behind this flag.
          execArgv: ['--experimental-websocket'],
        },
      },
      {
        resolve: { alias },
        test: {
          // The student pages' database work against tests/budgets/*.json, on a PostgreSQL cluster of
          // its own (pg_stat_statements); scripts/test.mjs runs it in its PostgreSQL step.
          name: 'budgets',
          environment: 'node',
          include: ['tests/budgets/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
          execArgv: ['--experimental-websocket'],
        },
      },
      {
        test: {
          // Every npm run bench:* at its smallest sizes (tests/benches/smoke.test.ts): scripts/test.mjs's last step.
          name: 'benches',
          environment: 'node',
          include: ['tests/benches/**/*.test.ts'],
          testTimeout: 600_000,
        },
      },
    ],
  },
});
