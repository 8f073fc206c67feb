/* global Deno */
// Runs one edge function in its own Deno process, launched by local-supabase (runner.ts) as
//   deno run … bootstrap.mjs <file URL of the function's index.ts>
// The function calls Deno.serve(handler) as on Supabase; we redirect that to a free loopback port the
// OS picks, report the port on stdout, then import the function. When local-supabase goes away our
// stdin closes and we exit, so no Deno process outlives the server.
const READY = '__LOCAL_SUPABASE_FUNCTION_READY__';
const entry = Deno.args[0];
const originalServe = Deno.serve.bind(Deno);
let serving = false;

Deno.serve = (...args) => {
  let options;
  let handler;
  if (typeof args[0] === 'function') {
    handler = args[0];
    options = args[1] ?? {};
  } else {
    options = args[0] ?? {};
    handler = typeof args[1] === 'function' ? args[1] : options.handler;
  }
  if (serving) throw new Error('local-supabase: an edge function can call Deno.serve only once');
  serving = true;
  // The function's own port, hostname, onListen and handler options are replaced, everything else kept.
  const replaced = ['port', 'hostname', 'onListen', 'handler'];
  const rest = Object.fromEntries(Object.entries(options).filter(([key]) => !replaced.includes(key)));
  return originalServe(
    {
      ...rest,
      port: 0,
      hostname: '127.0.0.1',
      onListen({ port }) {
        console.log(`${READY} ${port}`);
      },
    },
    handler,
  );
};

(async () => {
  const buf = new Uint8Array(256);
  try {
    while ((await Deno.stdin.read(buf)) !== null) {
      // nothing to read: we only wait for end of file
    }
  } catch {
    // stdin closed abruptly: same meaning
  }
  Deno.exit(0);
})();

await import(entry);
