// `npm run db:reset`: forgets the local database and storage files; the next `npm start` migrates and
// seeds a new one.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './ensure-deps.mjs';

const dir = path.resolve(ROOT, process.env.LOCAL_SUPABASE_DATA_DIR || '.local-supabase');
await rm(dir, { recursive: true, force: true });
console.log(`Banco local apagado (${path.relative(ROOT, dir)}). O próximo npm start cria e popula um novo.`);
