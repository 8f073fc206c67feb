// `npm run backend [-- --fresh]`: runs local-supabase alone until Ctrl+C.
import { startServer, stopOnSignal } from './server.ts';

const fresh = process.argv.includes('--fresh');
const server = await startServer({}, { fresh });
console.log(`[local-supabase] ready on ${server.url}${fresh ? ' (fresh in-memory database)' : ''}`);

stopOnSignal(server);
