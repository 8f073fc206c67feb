// The PGlite thread: Postgres (WASM) runs here, off the server's event loop, so a long query no longer
// stops every other request, and its memory is shared so the main thread can cancel a statement
// (pglite.ts). It runs one message at a time, in the order the main thread sends them; the main
// thread decides what may interleave (its lock keeps a transaction's statements together).
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite as PGliteClass } from '@electric-sql/pglite';
import { CANCELLING, type ErrorData, type Ready, type Reply, type Request, type WorkerOptions } from './pglite-protocol.ts';
import { MAX_PAGES, shareMemoryImport } from './pglite-shared-memory.ts';

const options = workerData as WorkerOptions;
const port = parentPort!;
const control = new Int32Array(options.control);

function errorData(e: unknown): ErrorData {
  if (!(e instanceof Error)) return { message: String(e) };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v;
  return { ...fields, message: e.message };
}

// Every memory of this thread is shared (it runs PGlite only), and every module that imports one
// declares it so (pglite-shared-memory.ts): pglite.wasm, initdb.wasm and the extensions PGlite links
// in when first used (plpgsql.so, pgcrypto.so) all come through these.
type Bytes = Parameters<typeof WebAssembly.compile>[0];
function sharing(source: Bytes): Bytes {
  if (source instanceof ArrayBuffer) return shareMemoryImport(new Uint8Array(source)) as Bytes;
  if (ArrayBuffer.isView(source)) return shareMemoryImport(new Uint8Array(source.buffer, source.byteOffset, source.byteLength)) as Bytes;
  return source;
}
WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
  construct: (Memory, [descriptor]: [WebAssembly.MemoryDescriptor]) => new Memory({ ...descriptor, maximum: descriptor.maximum ?? MAX_PAGES, shared: true }),
});
WebAssembly.Module = new Proxy(WebAssembly.Module, { construct: (Module, [bytes]: [Bytes]) => new Module(sharing(bytes)) });
const { instantiate, compile } = WebAssembly;
WebAssembly.instantiate = ((source: Bytes | WebAssembly.Module, imports?: WebAssembly.Imports) =>
  instantiate(source instanceof WebAssembly.Module ? source : sharing(source), imports)) as typeof WebAssembly.instantiate;
WebAssembly.compile = (bytes: Bytes) => compile(sharing(bytes));

// Node's TextDecoder refuses a view of shared memory, and PGlite decodes strings straight out of it.
const NativeTextDecoder = globalThis.TextDecoder;
globalThis.TextDecoder = class extends NativeTextDecoder {
  override decode(input?: Parameters<TextDecoder['decode']>[0], options?: TextDecodeOptions): string {
    if (ArrayBuffer.isView(input) && input.buffer instanceof SharedArrayBuffer) input = new Uint8Array(input.buffer, input.byteOffset, input.byteLength).slice();
    return super.decode(input, options);
  }
};

async function open(): Promise<{ db: PGliteClass; memory: SharedArrayBuffer; queryCancelPending: number; interruptPending: number }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pgcrypto } = await import('@electric-sql/pglite/contrib/pgcrypto');
  const db = new PGlite({
    dataDir: options.dataDir ?? undefined,
    loadDataDir: options.loadDataDir ? new Blob([options.loadDataDir]) : undefined,
    // Supabase ships pgcrypto (in schema extensions); seed.sql hashes passwords with it.
    extensions: { pgcrypto },
  });
  await db.waitReady;
  // The flags Postgres's CHECK_FOR_INTERRUPTS reads (exported globals: their addresses in memory).
  const mod = (db as unknown as { mod: { HEAPU8: Uint8Array; _QueryCancelPending: number; _InterruptPending: number } }).mod;
  const memory = mod.HEAPU8.buffer;
  if (!(memory instanceof SharedArrayBuffer)) throw new Error('PGlite did not get a shared memory');
  return { db, memory, queryCancelPending: mod._QueryCancelPending, interruptPending: mod._InterruptPending };
}

const opened = await open().catch((e: unknown) => {
  port.postMessage({ failed: errorData(e) } satisfies Ready); // the main thread ends this thread
  return null;
});
if (opened) serve(opened);

type Opened = Awaited<ReturnType<typeof open>>;

/** Answers the main thread's messages, one at a time, in order. */
function serve({ db, memory, queryCancelPending, interruptPending }: Opened) {
  const heap = new Int32Array(memory);

  /**
   * Runs fn as message `id`, which the main thread may cancel while it runs. Afterwards no cancel is
   * left behind: once the main thread set the flags (control[0] = -id), they are cleared here if
   * Postgres did not get to them, so the next statement does not see them.
   */
  async function cancellable<T>(id: number, fn: () => Promise<T>): Promise<T> {
    Atomics.store(control, 0, id);
    try {
      return await fn();
    } finally {
      for (;;) {
        const state = Atomics.compareExchange(control, 0, id, 0);
        if (state === id) break;
        if (state === -id) {
          Atomics.store(heap, queryCancelPending >> 2, 0);
          Atomics.store(heap, interruptPending >> 2, 0);
          Atomics.store(control, 0, 0);
          break;
        }
        Atomics.wait(control, 0, CANCELLING, 10); // the main thread is writing the flags
      }
    }
  }

  const rollbackIfOpen = async () => {
    if (db.isInTransaction()) await db.exec('rollback');
  };
  const rows = (r: { rows: unknown[]; affectedRows?: number }) => ({ rows: r.rows, rowCount: r.affectedRows ?? r.rows.length });

  async function handle(request: Request): Promise<unknown> {
    switch (request.op) {
      case 'query':
        return rows(await cancellable(request.id, () => db.query(request.text, request.params)));
      case 'exec':
        await cancellable(request.id, () => db.exec(request.script));
        return undefined;
      case 'run': {
        let results;
        try {
          results = await cancellable(request.id, () => db.exec(request.script));
        } catch (e) {
          await rollbackIfOpen();
          throw e;
        }
        // As on PostgreSQL, the timeout ends with the statement: COMMIT is not cancelled.
        if (request.commit) await db.exec('commit');
        return rows(results[2]!);
      }
      case 'rollback':
        return rollbackIfOpen();
      case 'dump':
        return (await db.dumpDataDir('none')).arrayBuffer();
      case 'close':
        return db.close();
    }
  }

  port.on('message', (request: Request) => {
    handle(request).then(
      (result) => port.postMessage({ id: request.id, result } satisfies Reply, result instanceof ArrayBuffer ? [result] : []),
      (e: unknown) => port.postMessage({ id: request.id, error: errorData(e) } satisfies Reply),
    );
  });
  port.postMessage({ memory, queryCancelPending, interruptPending } satisfies Ready);
}
