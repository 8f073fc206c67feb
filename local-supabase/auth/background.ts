// Work an auth endpoint does after it has answered: whether an address has an account decides what
// is written and mailed, so that part runs once the (identical) answer is on its way and cannot
// change how long the answer takes. close() and tests wait for it with settled().
import type { ServerContext } from '../http.ts';

const pending = new WeakMap<ServerContext, Set<Promise<void>>>();

/** Runs `work` on a later turn of the event loop, after the response written so far has gone out. */
export function afterResponse(ctx: ServerContext, label: string, work: () => Promise<void>): void {
  let set = pending.get(ctx);
  if (!set) pending.set(ctx, (set = new Set()));
  const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((e: unknown) => ctx.log(`auth: ${label} failed: ${(e as Error).stack ?? e}`))
    .finally(() => set.delete(job));
  set.add(job);
}

/** Resolves once every job started with afterResponse (and any they started) has finished. */
export async function settled(ctx: ServerContext): Promise<void> {
  const set = pending.get(ctx);
  while (set?.size) await Promise.all([...set]);
}
