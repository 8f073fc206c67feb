// bcrypt password hashes, compatible with GoTrue's ($2a/$2b, cost 10) and pgcrypto's crypt(.., gen_salt('bf')).
// The hashing runs in a thread of its own (password-worker.mjs), off the thread that answers requests.
import { Worker } from 'node:worker_threads';
import bcrypt from 'bcryptjs';

const COST = 10;
// Compared against when the account does not exist, so a wrong email costs as long as a wrong password.
const DUMMY_HASH = bcrypt.hashSync('local-supabase-dummy-password', COST);

type Job = { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };

let thread: Worker | null = null;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let nextId = 1;

/** The bcrypt thread, started on first use; it keeps the process alive only while it has work. */
function bcryptThread(): Worker {
  if (thread) return thread;
  const worker = new Worker(new URL('./password-worker.mjs', import.meta.url), { execArgv: [] });
  worker.unref();
  worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
    const job = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    if (error !== undefined) job?.reject(new Error(error));
    else job?.resolve(result);
  });
  const fail = (e: Error) => {
    if (thread === worker) thread = null; // the next job starts a new thread
    for (const job of pending.values()) job.reject(e);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the bcrypt thread exited (${code})`)));
  thread = worker;
  return worker;
}

function run<T>(job: Job): Promise<T> {
  const worker = bcryptThread();
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    worker.ref();
    worker.postMessage({ id, ...job });
  });
}

/** Never blocks the event loop (and never runs while holding a transaction). */
export function hashPassword(password: string): Promise<string> {
  return run<string>({ op: 'hash', password, cost: COST });
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash || !/^\$2[aby]\$\d\d\$/.test(hash)) {
    await run<boolean>({ op: 'compare', password, hash: DUMMY_HASH });
    return false;
  }
  return run<boolean>({ op: 'compare', password, hash });
}
