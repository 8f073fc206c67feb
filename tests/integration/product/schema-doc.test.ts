// docs/schema.md must be what `npm run gen:schema-doc` writes for the current migrations, on either
// engine: what each table allows today is read from the catalog, not from the migration history.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderSchemaDoc } from '../../../scripts/schema-doc.ts';
import { useBackend } from '../harness.ts';

const DOC = path.resolve(import.meta.dirname, '../../../docs/schema.md');

const backend = useBackend();
let rendered: string;

beforeAll(async () => {
  rendered = await renderSchemaDoc(backend.server.ctx.engine);
});

describe('docs/schema.md', () => {
  it('is up to date with supabase/migrations (run `npm run gen:schema-doc`)', async () => {
    const committed = await readFile(DOC, 'utf8').catch(() => '');
    expect(committed, 'docs/schema.md is out of date: run `npm run gen:schema-doc` and commit it').toBe(rendered);
  });

  it('shows the current text of a policy that later migrations altered, and who may call each function', () => {
    // materials_select was created in one migration and replaced in later ones: one row, today's text.
    expect(rendered.match(/^\| materials_select \|/gm)).toHaveLength(1);
    expect(rendered).toContain('### public.materials');
    // A grant revoked from the API roles reads as such.
    expect(rendered).toMatch(/\| `private\.[a-z_]+\([^|]*\)` \| [^|]+ \| definer \| — \| — \|/);
  });
});
