// End-to-end journeys in Debian's Chromium against the built SPA (vite preview) and a fresh, seeded
// local-supabase. scripts/test.mjs picks free ports and builds the SPA for E2E_API_PORT first (and with
// VIDEO_HOST_ORIGINS=http://127.0.0.1:<E2E_BUNNY_PORT>, so its Content-Security-Policy lets the browser
// reach the fake video host).
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { FAKE_BUNNY_KEYS } from './scripts/fake-bunny/keys.ts';

const apiPort = Number(process.env.E2E_API_PORT || 54331);
const webPort = Number(process.env.E2E_WEB_PORT || 4174);
const asaasPort = Number(process.env.E2E_ASAAS_PORT || 54339);
// The video host (issue 39): a second fresh local-supabase whose functions have the fake Bunny Stream
// (VIDEO_HOST=bunny), beside the first, which has none. Only tests/e2e/protected-video.spec.ts talks to
// it (its browsers' API requests are routed there), so every other journey keeps a school without a
// host: uploads go to Storage, as admin-content.spec.ts checks.
const bunnyPort = Number(process.env.E2E_BUNNY_PORT || 54340);
const videoApiPort = Number(process.env.E2E_VIDEO_API_PORT || 54341);
const bunnyUrl = `http://127.0.0.1:${bunnyPort}`;
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
      command: 'npx tsx local-supabase/main.ts --fresh',
      url: `http://localhost:${videoApiPort}/health`,
      env: {
        LOCAL_SUPABASE_PORT: String(videoApiPort),
        FUNCTIONS_SECRET_SITE_URL: `http://localhost:${webPort}`,
        FUNCTIONS_SECRET_VIDEO_HOST: 'bunny',
        FUNCTIONS_SECRET_BUNNY_API_URL: bunnyUrl,
        FUNCTIONS_SECRET_BUNNY_LIBRARY_ID: FAKE_BUNNY_KEYS.libraryId,
        FUNCTIONS_SECRET_BUNNY_API_KEY: FAKE_BUNNY_KEYS.apiKey,
        FUNCTIONS_SECRET_BUNNY_CDN_HOST: bunnyUrl,
        FUNCTIONS_SECRET_BUNNY_TOKEN_KEY: FAKE_BUNNY_KEYS.tokenKey,
        FUNCTIONS_SECRET_BUNNY_TUS_URL: `${bunnyUrl}/tusupload`,
        FUNCTIONS_SECRET_BUNNY_WEBHOOK_SECRET: FAKE_BUNNY_KEYS.readOnlyApiKey,
        AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '0',
        AUTH_RATE_LIMIT_TOKEN_REFRESH: '0',
        AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '0',
      },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The fake Bunny Stream (API, TUS upload and CDN on one port), its files in a folder of this run.
      command: 'npx tsx scripts/fake-bunny/main.ts',
      url: `${bunnyUrl}/health`,
      env: {
        FAKE_BUNNY_PORT: String(bunnyPort),
        FAKE_BUNNY_DATA_DIR: path.join(os.tmpdir(), `e2e-fake-bunny-${bunnyPort}-${process.pid}`),
        FAKE_BUNNY_WEBHOOK_URL: `http://localhost:${videoApiPort}/functions/v1/video-webhook`,
      },
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
