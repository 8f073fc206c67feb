// src/types/database.ts must be what `npm run gen:types` writes for the current migrations.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCatalog } from '../../../local-supabase/rest/catalog.ts';
import { generateTypes, readColumnChecks } from '../../../scripts/typegen.ts';
import { useBackend } from '../harness.ts';

const TYPES_FILE = path.resolve(import.meta.dirname, '../../../src/types/database.ts');

const backend = useBackend();

describe('generated database types', () => {
  it('src/types/database.ts is up to date with supabase/migrations (run `npm run gen:types`)', async () => {
    const engine = backend.server.ctx.engine;
    const expected = generateTypes(await readCatalog(engine), await readColumnChecks(engine));
    const committed = await readFile(TYPES_FILE, 'utf8').catch(() => '');
    expect(committed, 'src/types/database.ts is out of date: run `npm run gen:types` and commit it').toBe(expected);
  });

  it('renders tables, views, enums, composite types and overloaded functions like supabase gen types', async () => {
    const engine = backend.server.ctx.engine;
    await engine.exec(`
      create schema if not exists rt_gen;
      create type public.rt_gen_mood as enum ('feliz', 'triste');
      create type public.rt_gen_pair as (a int, b text);
      create table public.rt_gen_parent (id uuid primary key default gen_random_uuid(), name text not null);
      create table public.rt_gen_child (
        id bigint generated always as identity primary key,
        parent_id uuid not null unique references public.rt_gen_parent (id),
        mood public.rt_gen_mood,
        tags text[] not null default '{}',
        data jsonb,
        doubled int generated always as (2) stored,
        status text not null default 'novo' check (status in ('novo', 'pago', 'it''s')),
        kind text check (kind = any (array['a', 'b'])),
        size int check (size > 0)
      );
      create view public.rt_gen_view as select id, name from public.rt_gen_parent;
      create function public.rt_gen_fn(a int) returns text language sql as 'select ''x''';
      create function public.rt_gen_fn(a text, b text default null) returns setof public.rt_gen_parent language sql as 'select * from public.rt_gen_parent';
    `);
    const src = generateTypes(await readCatalog(engine), await readColumnChecks(engine));
    const compact = src.replace(/\s+/g, ' ');
    expect(compact).toContain(
      'rt_gen_child: { Row: { data: Json | null doubled: number | null id: number kind: "a" | "b" | null mood: Database["public"]["Enums"]["rt_gen_mood"] | null parent_id: string size: number | null status: "novo" | "pago" | "it\'s" tags: string[] }',
    );
    expect(compact).toContain(
      'Insert: { data?: Json | null doubled?: never id?: never kind?: "a" | "b" | null mood?: Database["public"]["Enums"]["rt_gen_mood"] | null parent_id: string size?: number | null status?: "novo" | "pago" | "it\'s" tags?: string[] }',
    );
    expect(compact).toContain(
      'Relationships: [ { foreignKeyName: "rt_gen_child_parent_id_fkey" columns: ["parent_id"] isOneToOne: true referencedRelation: "rt_gen_parent" referencedColumns: ["id"] }, ]',
    );
    expect(compact).toContain('Views: { rt_gen_view: { Row: { id: string | null name: string | null }');
    expect(compact).toContain('rt_gen_mood: "feliz" | "triste"');
    expect(compact).toContain('rt_gen_pair: { a: number | null b: string | null }');
    expect(compact).toContain(
      'rt_gen_fn: | { Args: { a: number | null } Returns: string } | { Args: { a: string | null; b?: string | null } Returns: { id: string name: string }[] }',
    );
    expect(compact).toContain('rt_gen_mood: ["feliz", "triste"],');
    // Check-constrained text columns: their values at run time too, for zod schemas.
    expect(compact).toContain(`rt_gen_child: { kind: ["a", "b"], status: ["novo", "pago", "it's"], },`);
    expect(compact).not.toContain('size: [');
    // Deterministic: the same catalog renders the same text.
    expect(generateTypes(await readCatalog(engine), await readColumnChecks(engine))).toBe(src);
  });
});
