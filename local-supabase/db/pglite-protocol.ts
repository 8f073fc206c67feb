// What the server's thread and the PGlite thread (pglite.ts, pglite-worker.ts) say to each other.

export interface WorkerOptions {
  dataDir: string | null;
  /** A data dir tarball to start from. */
  loadDataDir: ArrayBuffer | null;
  /** Int32Array(1): the id of the message running, CANCELLING or -id (see cancel in pglite.ts). */
  control: SharedArrayBuffer;
}

export type Request =
  | { id: number; op: 'query'; text: string; params: unknown[] }
  | { id: number; op: 'exec'; script: string }
  /** `script` is `begin; <settings>; <statement>`: answers the statement's rows and leaves the
   * transaction open (`commit`: ends it with COMMIT after the statement, outside the cancellable part). */
  | { id: number; op: 'run'; script: string; commit: boolean }
  | { id: number; op: 'rollback' }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

/** A Postgres error's fields (code, detail, hint ...) as plain data. */
export type ErrorData = { message: string } & Record<string, unknown>;
export type Reply = { id: number; result?: unknown; error?: ErrorData };
export type Ready = { memory: SharedArrayBuffer; queryCancelPending: number; interruptPending: number } | { failed: ErrorData };

/** control[0] while the main thread is writing the cancel flags. */
export const CANCELLING = -0x80000000;
