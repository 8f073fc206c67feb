// Installs the npm dependencies when node_modules is missing or older than the lockfile, so
// `npm start` and `npm test` work on a fresh clone with nothing but Node 20 and npm.
import { existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export function ensureDeps() {
  const modules = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  const stale = !existsSync(modules) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(modules).mtimeMs + 1000);
  if (!stale) return;
  console.log('› Instalando dependências (npm ci)...');
  const r = spawnSync('npm', [existsSync(lock) ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (r.status !== 0) {
    console.error('npm não conseguiu instalar as dependências.');
    process.exit(r.status ?? 1);
  }
}
