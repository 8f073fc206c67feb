// A fresh local-supabase for one client suite (started by run.mjs): the project whose supabase/ folder
// is at argv[2] (its migrations, seed.sql and config.toml), on LOCAL_SUPABASE_PORT, in memory (PGlite)
// or in the database of DATABASE_URL. Prints `ready <url>` once it answers; stops when stdin closes.
import { startServer, stopOnSignal } from '../../local-supabase/server.ts';

const rootDir = process.argv[2];
if (!rootDir) throw new Error('usage: serve.ts <project dir holding supabase/>');

const server = await startServer({ rootDir }, { fresh: true, seed: true, log: (line) => console.error(line) });
console.log(`ready ${server.url}`);

// The runner holds our stdin: if it dies without stopping us, we stop by ourselves.
stopOnSignal(server, (stop) => {
  process.stdin.on('end', stop);
  process.stdin.resume();
});
