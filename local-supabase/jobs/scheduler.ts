// What pg_cron's and pg_net's background workers do on the platform, for the stand-ins of
// ../db/platform-extensions.sql: each minute, every active cron.job due then runs its command in its
// own transaction as the platform's postgres (the job's owner there), noted in cron.job_run_details;
// and, a few times a second, the requests queued by net.http_post / net.http_get are sent, each answer
// (or error) kept in net._http_response. A job never waits for its HTTP calls, as with pg_net.
import type { Engine } from '../db/engine.ts';
import { MIGRATION_ROLE } from '../db/migrate.ts';
import { parseCron } from './cron-expression.ts';

interface Job {
  jobid: string;
  jobname: string | null;
  schedule: string;
  command: string;
}
interface QueuedRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  timeout_milliseconds: number;
}

export interface Scheduler {
  /** Runs the jobs due in the minute of `at` (once per job and minute), then sends the queued requests. */
  tick(at?: Date): Promise<void>;
  /** Sends the queued HTTP requests now; resolves when their answers are recorded. */
  sendQueuedRequests(): Promise<void>;
  close(): Promise<void>;
}

const minuteOf = (d: Date) => Math.floor(d.getTime() / 60_000);

/** `everyMs`: how often the clock is looked at (0: never on its own; tests call tick). */
export function startScheduler(engine: Engine, { everyMs = 1_000, log = (_: string) => {} } = {}): Scheduler {
  const lastRun = new Map<string, number>();
  let busy: Promise<void> = Promise.resolve();
  let closed = false;

  async function runJob(job: Job): Promise<void> {
    const start = new Date();
    let status = 'succeeded';
    let message = '';
    try {
      await engine.transaction(async (tx) => {
        await tx.exec(`set local role ${MIGRATION_ROLE}`);
        await tx.exec(job.command);
      });
    } catch (e) {
      status = 'failed';
      message = e instanceof Error ? e.message : String(e);
      log(`cron job ${job.jobname ?? job.jobid} failed: ${message}`);
    }
    await engine.query(
      `insert into cron.job_run_details (jobid, database, username, command, status, return_message, start_time, end_time)
       values ($1, current_database(), $2, $3, $4, $5, $6, now())`,
      [job.jobid, MIGRATION_ROLE, job.command, status, message.slice(0, 2000), start.toISOString()],
    );
  }

  async function runDue(at: Date): Promise<void> {
    const jobs = (await engine.query<Job>('select jobid::text as jobid, jobname, schedule, command from cron.job where active order by jobid')).rows;
    for (const job of jobs) {
      let due: boolean;
      try {
        due = parseCron(job.schedule)(at);
      } catch {
        continue;
      }
      if (!due || lastRun.get(job.jobid) === minuteOf(at)) continue;
      lastRun.set(job.jobid, minuteOf(at));
      await runJob(job);
    }
  }

  async function send(request: QueuedRequest): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), request.timeout_milliseconds);
    try {
      const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: controller.signal });
      const content = await res.text();
      await engine.query(
        'insert into net._http_response (id, status_code, content_type, headers, content, timed_out) values ($1, $2, $3, $4, $5, false)',
        [request.id, res.status, res.headers.get('content-type'), JSON.stringify(Object.fromEntries(res.headers)), content],
      );
    } catch (e) {
      const timedOut = controller.signal.aborted;
      await engine.query('insert into net._http_response (id, timed_out, error_msg) values ($1, $2, $3)', [
        request.id,
        timedOut,
        timedOut ? 'Timeout was reached' : e instanceof Error ? e.message : String(e),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function sendQueuedRequests(): Promise<void> {
    const queued = (
      await engine.query<QueuedRequest>(
        `delete from net.http_request_queue returning id::text as id, method, url, headers, convert_from(body, 'UTF8') as body, timeout_milliseconds`,
      )
    ).rows;
    await Promise.all(queued.map((r) => send({ ...r, headers: typeof r.headers === 'string' ? JSON.parse(r.headers) : r.headers })));
  }

  const serialized = (fn: () => Promise<void>) => (busy = busy.then(fn, fn).catch((e: unknown) => log(`scheduler: ${e instanceof Error ? e.message : String(e)}`)));

  const timer = everyMs > 0 ? setInterval(() => void serialized(async () => {
    if (closed) return;
    await runDue(new Date());
    await sendQueuedRequests();
  }), everyMs) : null;
  timer?.unref();

  return {
    tick: (at = new Date()) => serialized(async () => {
      await runDue(at);
      await sendQueuedRequests();
    }),
    sendQueuedRequests: () => serialized(sendQueuedRequests),
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await busy;
    },
  };
}
