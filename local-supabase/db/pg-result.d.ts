// node-pg's internal row parser, used by pipelined-statement.ts (pg ships no types for it).
declare module 'pg/lib/result.js' {
  export default class Result {
    constructor(rowMode: 'array' | undefined, types: unknown);
    rows: unknown[];
    rowCount: number | null;
    addFields(fields: unknown): void;
    parseRow(fields: unknown[]): unknown;
    addRow(row: unknown): void;
    addCommandComplete(msg: unknown): void;
  }
}
