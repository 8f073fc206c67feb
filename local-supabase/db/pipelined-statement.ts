// One API request on PostgreSQL in one round trip, with prepared statements (issue 12).
//
// The extended query protocol runs every Execute sent before a Sync in one implicit transaction,
// committed at the Sync (rolled back on error). So the request's settings (`set_config(…, true)`:
// role, JWT claims, …) and its statement go out as one pipeline — Bind/Execute, Bind/Execute, Sync —
// and both are named prepared statements on the connection: PostgreSQL parses and plans a query
// shape once per connection instead of once per request (planning the embedded selects with their
// policies costs as much as running them). node-pg has no pipelining, so this is a "submittable"
// (the interface pg-cursor uses): it writes the messages itself and node-pg hands it the replies.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import Result from 'pg/lib/result.js'; // node-pg's row parser (types in pg-result.d.ts)

/** Prepared statements kept per connection (least recently used closed first): query shapes are
 * bounded by the app's code, but a caller can invent filters, and each costs the backend memory. */
const MAX_PREPARED = 256;

interface Message {
  text?: string;
  command?: string;
  fields?: unknown[];
}
interface Connection {
  parse(q: { name: string; text: string; types?: number[] }): void;
  bind(b: { statement: string; values: (string | null)[] }): void;
  describe(d: { type: 'P' | 'S'; name: string }): void;
  execute(e: { portal?: string; rows?: number }): void;
  close(c: { type: 'S' | 'P'; name: string }): void;
  sync(): void;
  stream: { cork?: () => void; uncork?: () => void };
}

/** The names prepared on each connection, in use order; names listed in `unsure` may or may not exist. */
interface Prepared {
  names: Map<string, true>;
  unsure: Set<string>;
}
const preparedOn = new WeakMap<object, Prepared>();

const nameOf = (text: string) => `ls_${createHash('sha1').update(text).digest('base64url')}`;

/** `select set_config($1, $2, true), …` for n settings (names and values are parameters). */
const settingsTexts = new Map<number, string>();
function settingsText(n: number): string {
  let text = settingsTexts.get(n);
  if (!text) {
    text = `select ${Array.from({ length: n }, (_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`;
    settingsTexts.set(n, text);
  }
  return text;
}

export interface PipelinedResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

class PipelinedStatement {
  private settingsDone: boolean;
  /** Closed in this pipeline to make room: if the pipeline fails, the Close may not have run. */
  private readonly evicted: string[] = [];
  private readonly result = new Result(undefined, undefined);
  private error: Error | null = null;
  private readonly names: string[];

  constructor(
    private readonly prepared: Prepared,
    private readonly statements: { text: string; values: (string | null)[] }[],
    private readonly callback: (error: Error | null, result?: PipelinedResult) => void,
  ) {
    this.names = statements.map((s) => nameOf(s.text));
    this.settingsDone = statements.length === 1; // no settings: the only statement is the request's
  }

  submit(connection: Connection): null {
    connection.stream.cork?.();
    try {
      for (const [i, { text, values }] of this.statements.entries()) {
        const name = this.names[i]!;
        if (!this.prepared.names.has(name)) {
          // After a failed pipeline a Parse may or may not have happened: closing first is harmless.
          if (this.prepared.unsure.has(name)) connection.close({ type: 'S', name });
          connection.parse({ name, text });
        }
        connection.bind({ statement: name, values });
        if (i === this.statements.length - 1) connection.describe({ type: 'P', name: '' });
        connection.execute({});
      }
      this.evict(connection);
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  /** Closes the least recently used statements beyond MAX_PREPARED (in the same pipeline). */
  private evict(connection: Connection) {
    const { names } = this.prepared;
    for (const name of this.names) {
      names.delete(name);
      names.set(name, true); // most recently used last; confirmed (or dropped) at ReadyForQuery
    }
    while (names.size > MAX_PREPARED) {
      const oldest = names.keys().next().value!;
      names.delete(oldest);
      this.evicted.push(oldest);
      connection.close({ type: 'S', name: oldest });
    }
  }

  handleRowDescription(msg: Message) {
    this.result.addFields(msg.fields);
  }

  handleDataRow(msg: { fields: unknown[] }) {
    if (!this.settingsDone || this.error) return; // the settings' own row
    try {
      this.result.addRow(this.result.parseRow(msg.fields));
    } catch (e) {
      this.error = e as Error;
    }
  }

  handleCommandComplete(msg: Message) {
    if (this.settingsDone) this.result.addCommandComplete(msg);
    this.settingsDone = true;
  }

  handleEmptyQuery() {}

  // node-pg forgets the query on an error message (its ReadyForQuery then reaches nobody), so an
  // error ends it here; the connection takes no other query until that ReadyForQuery arrives.
  handleError(error: Error) {
    this.finish(this.error ?? error);
  }

  handleReadyForQuery() {
    this.finish(this.error);
  }

  private finished = false;
  private finish(error: Error | null) {
    if (this.finished) return;
    this.finished = true;
    if (error) {
      // The pipeline stopped somewhere: which of its Parse messages took effect is unknown.
      for (const name of [...this.names, ...this.evicted]) {
        this.prepared.names.delete(name);
        this.prepared.unsure.add(name);
      }
      return this.callback(error);
    }
    for (const name of this.names) this.prepared.unsure.delete(name);
    this.callback(null, { rows: this.result.rows as Record<string, unknown>[], rowCount: this.result.rowCount ?? this.result.rows.length });
  }

  handlePortalSuspended() {}
  handleCopyInResponse() {}
  handleCopyData() {}
}

/**
 * Runs `settings` (set_config, local to the transaction) and then `statement` in one implicit
 * transaction on `client`, in one round trip; resolves with the statement's rows.
 */
export function runPipelined(client: pg.PoolClient, settings: Record<string, string>, statement: { text: string; params: (string | null)[] }): Promise<PipelinedResult> {
  let prepared = preparedOn.get(client);
  if (!prepared) preparedOn.set(client, (prepared = { names: new Map(), unsure: new Set() }));
  const entries = Object.entries(settings);
  const statements = [{ text: statement.text, values: statement.params }];
  if (entries.length > 0) statements.unshift({ text: settingsText(entries.length), values: entries.flat() });
  return new Promise((resolve, reject) => {
    const submittable = new PipelinedStatement(prepared, statements, (error, result) => (error ? reject(error) : resolve(result!)));
    client.query(submittable as unknown as pg.QueryConfig);
  });
}
