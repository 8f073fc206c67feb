// `npm run backend [-- --fresh]`: runs local-supabase alone until Ctrl+C.
import { startServer } from './server.ts';

const fresh = process.argv.includes('--fresh');
const server = await startServer({}, { fresh });
console.log(`[local-supabase] ready on ${server.url}${fresh ? ' (fresh in-memory database)' : ''}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
