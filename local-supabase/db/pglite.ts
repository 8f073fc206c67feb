// PGlite: Postgres compiled to WASM, run in a worker thread of this process (pglite-worker.ts). Its
// queries no longer block the server's event loop, and a statement that runs past the request's
// statement_timeout is cancelled as PostgreSQL cancels it: WASM has no timers, so this thread watches
// the clock and sets Postgres's own interrupt flags in PGlite's shared memory; the statement ends with
// 57014 at its next CHECK_FOR_INTERRUPTS, its transaction is rolled back, and the engine goes on
// (pg_sleep, a busy wait here, sleeps to its end first). PGlite has one connection, so every call
// takes this side's lock; a transaction holds it until it ends.
import { Worker } from 'node:worker_threads';
import { inlineParams, settingsSql, type Engine, type PgError, type Sql, type SqlResult, type TextStatement, type Verdict } from './engine.ts';
import { CANCELLING, type ErrorData, type Ready, type Reply, type Request, type WorkerOptions } from './pglite-protocol.ts';

/** Milliseconds of a statement_timeout value as Postgres reads it ('8s', '300ms', '1min', '500'); 0: none. */
export function timeoutMs(value: string | undefined): number {
  const m = value?.trim().match(/^(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?$/);
  if (!m) return 0;
  const unit = { us: 0.001, ms: 1, s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 'ms'] as number;
  return Math.round(Number(m[1]) * unit);
}

/** A message to the thread before it gets its id. */
type WithoutId<R> = R extends unknown ? Omit<R, 'id'> : never;
type Call = WithoutId<Request>;
interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
  /** The statement ran past its timeout and was cancelled. */
  timedOut?: boolean;
}

export async function openPglite(options: { dataDir?: string | null; loadDataDir?: Blob } = {}): Promise<Engine & { dump(): Promise<Blob> }> {
  const control = new SharedArrayBuffer(4);
  const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : null;
  const worker = new Worker(new URL('./pglite-worker-boot.mjs', import.meta.url), {
    workerData: { dataDir: options.dataDir ?? null, loadDataDir, control } satisfies WorkerOptions,
    transferList: loadDataDir ? [loadDataDir] : [],
    execArgv: [],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const failed = (e: Error) => reject(e);
    const exited = (code: number) => reject(new Error(`PGlite thread exited (${code}) while starting`));
    worker.once('error', failed).once('exit', exited);
    worker.once('message', (message: Ready) => {
      worker.off('error', failed).off('exit', exited);
      resolve(message);
    });
  });
  if ('failed' in ready) {
    await worker.terminate();
    throw toError(ready.failed);
  }
  const { memory, queryCancelPending, interruptPending } = ready;
  const flags = new Int32Array(memory);
  const state = new Int32Array(control);

  // ── Messages to the thread ──────────────────────────────────────────────────────────────────
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stopped: Error | null = null;
  worker.unref(); // like PGlite in this thread, an idle engine does not keep the process alive
  worker.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    clearTimeout(p.timer);
    if (pending.size === 0) worker.unref();
    if (!reply.error) return p.resolve(reply.result);
    const error = toError(reply.error);
    // Cancelled by us (the thread's Postgres says "due to user request"): what PostgreSQL says.
    if (p.timedOut && error.code === '57014') error.message = 'canceling statement due to statement timeout';
    p.reject(error);
  });
  const stop = (e: Error) => {
    stopped = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('error', (e: Error) => stop(new Error(`PGlite stopped: ${e.message}`, { cause: e })));
  worker.on('exit', (code) => stop(new Error(`PGlite thread exited (${code})`)));

  /** Sends one message; `timeout` (ms) cancels the statement it runs once it has run that long. */
  function call<T>(request: Call, timeout = 0): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    if (nextId > 0x7fffffff) nextId = 1;
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { resolve: resolve as (value: unknown) => void, reject };
      if (timeout > 0) entry.timer = setTimeout(() => (entry.timedOut = cancel(id)), timeout);
      pending.set(id, entry);
      if (pending.size === 1) worker.ref();
      worker.postMessage({ ...request, id } as Request);
    });
  }

  /**
   * Sets QueryCancelPending and InterruptPending (Postgres's flags; a SIGINT sets the same) while
   * message `id` runs, and only then: the thread clears them when the message ends (pglite-worker.ts).
   */
  function cancel(id: number): boolean {
    if (Atomics.compareExchange(state, 0, id, CANCELLING) !== id) return false; // ended meanwhile
    Atomics.store(flags, queryCancelPending >> 2, 1);
    Atomics.store(flags, interruptPending >> 2, 1);
    Atomics.store(state, 0, -id);
    Atomics.notify(state, 0);
    return true;
  }

  // ── One connection: a lock around each call and each transaction ─────────────────────────────
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
  const query = <T>(text: string, params: unknown[] = [], timeout = 0) => call<SqlResult<T>>({ op: 'query', text, params }, timeout);
  const exec = (script: string, timeout = 0) => call<void>({ op: 'exec', script }, timeout);

  let closing: Promise<void> | null = null;
  return {
    kind: 'pglite',
    query: (text, params) => exclusive(() => query(text, params)),
    exec: (script) => exclusive(() => exec(script)),
    transaction: (fn, settings) =>
      exclusive(async () => {
        const timeout = timeoutMs(settings?.statement_timeout);
        const tx: Sql = { query: (text, params) => query(text, params, timeout), exec: (script) => exec(script, timeout) };
        try {
          await exec(settings && Object.keys(settings).length ? `begin; ${settingsSql(settings)}` : 'begin');
          const result = await fn(tx);
          await exec('commit');
          return result;
        } catch (e) {
          await call({ op: 'rollback' }).catch(() => {});
          throw e;
        }
      }),
    // Settings and statement in one message, so one round trip to the thread per request (two with a
    // verdict); the parameters are inlined as for PostgreSQL.
    runStatement: <T>(settings: Record<string, string>, statement: TextStatement, decide?: (result: SqlResult<T>) => Verdict) =>
      exclusive(async () => {
        const script = `begin; ${settingsSql(settings)}; ${inlineParams(statement)}`;
        const result = await call<SqlResult<T>>({ op: 'run', script, commit: !decide }, timeoutMs(settings.statement_timeout));
        if (!decide) return result;
        let verdict: Verdict;
        try {
          verdict = decide(result);
        } catch (e) {
          await call({ op: 'rollback' });
          throw e;
        }
        await exec(verdict === 'rollback' ? 'rollback' : 'commit');
        return result;
      }),
    close: () =>
      (closing ??= exclusive(async () => {
        if (!stopped) await call({ op: 'close' }).catch(() => {});
        await worker.terminate();
      })),
    // A tarball of the data dir, for snapshotting a migrated database in tests.
    dump: () => exclusive(() => call<ArrayBuffer>({ op: 'dump' })).then((bytes) => new Blob([bytes])),
  };
}

/** A Postgres error from the thread, with its fields (code, detail, hint ...) as PGlite gives them. */
function toError(data: ErrorData): PgError {
  const { message, ...fields } = data;
  return Object.assign(new Error(message), fields);
}
