// `npm run conventions`: the facts of issue 20 ("one way to do each thing"), counted in the source.
// scripts/conventions.test.ts holds them at their targets; run this to see the figures.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Finding {
  file: string;
  line: number;
  text: string;
  /** The comment on the line above, when there is one (a cast's reason). */
  reason?: string;
}

export interface ConventionReport {
  /** Components (.tsx) that reach the database themselves instead of through their feature's hooks. */
  componentsReachingTheClient: Finding[];
  /** A supabase-js client typed without the generated Database. */
  untypedClients: Finding[];
  asUnknownAs: Finding[];
  /** `.limit(N)` without a `bounded:` comment saying why the cut is not a list's. */
  silentLimits: Finding[];
  /** Hand-written error toasts outside the one mutation error path. */
  errorToasts: Finding[];
  /** A query key written as a literal array instead of built on src/platform/query-keys.ts. */
  literalKeys: Finding[];
  /** `<form>`s not driven by react-hook-form, unless marked `hand-held form:` with the reason. */
  formsWithoutHookForm: string[];
  /** Feature components over 300 lines and local-supabase files over 350. */
  oversizedFiles: { file: string; lines: number; limit: number }[];
}

const ROOT = path.resolve(import.meta.dirname, '..');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function grep(files: string[], pattern: RegExp, root: string, keep: (line: string, previous: string) => boolean = () => true): Finding[] {
  const found: Finding[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, i) => {
      const previous = lines[i - 1] ?? '';
      if (pattern.test(text) && keep(text, previous)) found.push({ file: path.relative(root, file), line: i + 1, text: text.trim(), reason: /^\s*\/\//.test(previous) ? previous.trim() : undefined });
    });
  }
  return found;
}

export function measureConventions(root = ROOT): ConventionReport {
  const src = walk(path.join(root, 'src')).filter((f) => !f.includes(`${path.sep}test${path.sep}`) && !f.endsWith('database.ts'));
  const components = src.filter((f) => f.endsWith('.tsx'));
  const featureComponents = components.filter((f) => f.includes(`${path.sep}features${path.sep}`));
  const backend = walk(path.join(root, 'local-supabase'));
  const rel = (f: string) => path.relative(root, f);
  const lineCount = (f: string) => readFileSync(f, 'utf8').split('\n').length - 1;

  return {
    componentsReachingTheClient: grep(components, /from '@\/platform\/(supabase|functions)'|loadSupabase\(|^[^'"`]*\bfetch\(/, root),
    untypedClients: grep(src, /\bSupabaseClient\b(?!<(App)?Database>)/, root, (line) => !/^\s*(\/\/|\*)/.test(line) && !/import (type )?\{[^}]*SupabaseClient/.test(line)),
    asUnknownAs: grep(src, /as unknown as/, root),
    silentLimits: grep(src, /\.limit\(/, root, (line, previous) => !/bounded:/.test(line + previous)),
    errorToasts: grep(src, /toast\.error\(/, root, () => true).filter((f) => f.file !== path.join('src', 'platform', 'errors.ts') && f.file !== path.join('src', 'platform', 'toast.ts')),
    literalKeys: grep(src, /queryKey: \[\s*['`]|invalidateQueries\(\{ queryKey: \[\s*['`]/, root),
    formsWithoutHookForm: components.filter((f) => /<form\b/.test(readFileSync(f, 'utf8')) && !/useForm\b|useFormContext\b|handleSubmit|hand-held form:/.test(readFileSync(f, 'utf8'))).map(rel),
    oversizedFiles: [
      ...featureComponents.map((f) => ({ file: rel(f), lines: lineCount(f), limit: 300 })),
      ...backend.map((f) => ({ file: rel(f), lines: lineCount(f), limit: 350 })),
    ].filter((f) => f.lines > f.limit),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const root = dir ? path.resolve(dir) : ROOT;
  const report = measureConventions(root);
  for (const [fact, found] of Object.entries(report)) {
    console.log(`${fact.padEnd(30)} ${String(found.length).padStart(4)}`);
    if (process.argv.includes('--list')) for (const f of found as (Finding | string | { file: string })[]) console.log('   ', typeof f === 'string' ? f : 'line' in f ? `${f.file}:${f.line}  ${f.text}` : JSON.stringify(f));
  }
}
