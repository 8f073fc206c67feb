// End-to-end journeys in Debian's Chromium against the built SPA (vite preview) and a fresh, seeded
// local-supabase. scripts/test.mjs picks free ports and builds the SPA for E2E_API_PORT first.
import { defineConfig, devices } from '@playwright/test';

const apiPort = Number(process.env.E2E_API_PORT || 54331);
const webPort = Number(process.env.E2E_WEB_PORT || 4174);
const asaasPort = Number(process.env.E2E_ASAAS_PORT || 54339);
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Where the SPA was built (vite build --outDir), so two runs side by side need not share dist/.
const distDir = process.env.E2E_DIST_DIR || 'dist';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${webPort}`,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: 'npx tsx local-supabase/main.ts --fresh',
      url: `http://localhost:${apiPort}/health`,
      env: {
        LOCAL_SUPABASE_PORT: String(apiPort),
        // The functions charge through this run's fake Asaas and send buyers back to this run's SPA.
        FUNCTIONS_SECRET_ASAAS_SANDBOX_URL: `http://localhost:${asaasPort}/api/v3`,
        FUNCTIONS_SECRET_ASAAS_PRODUCTION_URL: `http://localhost:${asaasPort}/api/v3`,
        FUNCTIONS_SECRET_SITE_URL: `http://localhost:${webPort}`,
        // Every spec signs in from 127.0.0.1, in parallel: no per-IP auth limits (0 = none) here.
        AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '0',
        AUTH_RATE_LIMIT_TOKEN_REFRESH: '0',
        AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '0',
        // Nor a per-address budget of new image renders (local-supabase/storage/render-limits.ts).
        LOCAL_STORAGE_RENDER_MISSES_PER_MINUTE: '0',
      },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'npx tsx scripts/fake-asaas/main.ts',
      url: `http://localhost:${asaasPort}/health`,
      env: { FAKE_ASAAS_PORT: String(asaasPort), FAKE_ASAAS_API_URL: `http://localhost:${apiPort}` },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `npx vite preview --port ${webPort} --strictPort --outDir ${distDir}`,
      url: `http://localhost:${webPort}`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
