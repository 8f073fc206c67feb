// What rendering one statement carries along: the bound parameters so far and the count of
// `pgrst_<x><n>` aliases taken. Every value travels as a text parameter and is cast in SQL.
import type { ReadPlan } from './plan.ts';

/** A statement's text and its parameters, `$1` first. */
export interface Statement {
  sql: string;
  params: (string | null)[];
}

export class RenderContext {
  readonly params: (string | null)[];
  private aliasCount: number;

  constructor(
    /** The request's schema (computed fields, relationships and junction tables are named in it). */
    readonly schema: string,
    /** Parameters of what the statement already holds (a mutation's CTE before its representation). */
    params: readonly (string | null)[] = [],
    /** Aliases taken before rendering (by planning). */
    aliasesUsed = 0,
  ) {
    this.params = [...params];
    this.aliasCount = aliasesUsed;
  }

  static of(plan: ReadPlan, params: readonly (string | null)[] = []): RenderContext {
    return new RenderContext(plan.schema, params, plan.aliasesUsed);
  }

  /** Binds `value` as the next parameter and returns its placeholder. */
  param(value: string | null): string {
    this.params.push(value);
    return `$${this.params.length}::text`;
  }

  alias(prefix: string): string {
    return `pgrst_${prefix}${this.aliasCount++}`;
  }

  statement(sql: string): Statement {
    return { sql, params: [...this.params] };
  }
}
