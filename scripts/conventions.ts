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
  /** Issue 45, the rooms of src (docs/conventions.md "Rooms"): an import against app → features →
   * concepts → components → platform → utils (a room imports only the rooms after it), or a feature
   * importing another feature. eslint.config.js refuses them as you type; this counts them. */
  roomImports: Finding[];
  /** Issue 45: a route file that does more than load and compose: over ROUTE_FILE_MAX_LINES lines of
   * code, imports, comments and blank lines aside (a route composing six features imports six). */
  longRouteFiles: { file: string; lines: number; limit: number }[];
  /** Issue 45: an import of a file inside src/platform/first-visit/ from outside the folder, other
   * than its two doors (index.ts for the app, vite-plugin.ts for the build; docs/first-visit.md). */
  firstVisitDeepImports: Finding[];
}

/** A source file as the counters read it: its path from the repository's root and its text. */
export interface SourceFile {
  file: string;
  text: string;
}

/** The rooms of src in import order: each may import only the rooms after it (types: anyone). */
export const ROOMS = ['app', 'features', 'concepts', 'components', 'platform', 'utils', 'types'] as const;
export const ROUTE_FILE_MAX_LINES = 30;
const ROUTES_DIR = 'src/app/routes/';
const FIRST_VISIT_DIR = 'src/platform/first-visit/';
const FIRST_VISIT_DOORS = ['src/platform/first-visit/index', 'src/platform/first-visit/vite-plugin'];

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

/** Each import of a file (static, dynamic, re-export) resolved to a path from the root without its
 * extension: '@/x' is src/x, './x' and '../x' are beside the file; packages are left out. */
function importsOf({ file, text }: SourceFile): { line: number; text: string; target: string }[] {
  const found: { line: number; text: string; target: string }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(?:from\s+|import\s*\(\s*|^\s*import\s+)'([^']+)'/g)) {
      const spec = m[1]!;
      const target = spec.startsWith('@/') ? `src/${spec.slice(2)}` : spec.startsWith('.') ? path.posix.join(path.posix.dirname(file), spec) : null;
      if (target) found.push({ line: i + 1, text: line.trim(), target: target.replace(/\.(tsx?|js)$/, '').replace(/\/index$/, '') });
    }
  });
  return found;
}

/** src/<room>/…: the room's rank in ROOMS and, for a feature, its name; null outside the rooms (main.tsx, src/test). */
function roomOf(file: string): { rank: number; feature?: string } | null {
  const [top, room, feature] = file.split('/');
  const rank = ROOMS.indexOf(room as (typeof ROOMS)[number]);
  if (top !== 'src' || rank < 0) return null;
  return room === 'features' ? { rank, feature } : { rank };
}

/** The room rule, counted over `files` (paths from the root, '/'-separated). */
export function roomImports(files: SourceFile[]): Finding[] {
  const found: Finding[] = [];
  for (const f of files) {
    const from = roomOf(f.file);
    if (!from) continue;
    for (const imp of importsOf(f)) {
      const to = roomOf(imp.target);
      if (!to || ROOMS[to.rank] === 'types') continue;
      const upward = to.rank < from.rank;
      const otherFeature = from.feature !== undefined && to.feature !== undefined && from.feature !== to.feature;
      if (upward || otherFeature) found.push({ file: f.file, line: imp.line, text: imp.text });
    }
  }
  return found;
}

/** A file's lines of code: blank lines, comments and import statements (however many lines each) aside. */
export function codeLines(text: string): number {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*import\s[\s\S]*?from\s+'[^']+';?\s*$/gm, '')
    .replace(/^\s*import\s+'[^']+';?\s*$/gm, '');
  return code.split('\n').filter((line) => line.trim() !== '' && !/^\s*\/\//.test(line)).length;
}

/** Route files (src/app/routes, tests aside) over the limit of lines of code. */
export function longRouteFiles(files: SourceFile[], limit = ROUTE_FILE_MAX_LINES): { file: string; lines: number; limit: number }[] {
  return files
    .filter((f) => f.file.startsWith(ROUTES_DIR) && !/\.test\.tsx?$/.test(f.file))
    .map((f) => ({ file: f.file, lines: codeLines(f.text), limit }))
    .filter((f) => f.lines > limit);
}

/** Imports of a first-visit file other than its doors, from outside the folder. */
export function firstVisitDeepImports(files: SourceFile[]): Finding[] {
  return files
    .filter((f) => !f.file.startsWith(FIRST_VISIT_DIR))
    .flatMap((f) =>
      importsOf(f)
        .filter((imp) => imp.target.startsWith(FIRST_VISIT_DIR) && !FIRST_VISIT_DOORS.includes(imp.target))
        .map((imp) => ({ file: f.file, line: imp.line, text: imp.text })),
    );
}

export function measureConventions(root = ROOT): ConventionReport {
  const src = walk(path.join(root, 'src')).filter((f) => !f.includes(`${path.sep}test${path.sep}`) && !f.endsWith('database.ts'));
  const components = src.filter((f) => f.endsWith('.tsx'));
  const featureComponents = components.filter((f) => f.includes(`${path.sep}features${path.sep}`));
  const backend = walk(path.join(root, 'local-supabase'));
  const rel = (f: string) => path.relative(root, f);
  const lineCount = (f: string) => readFileSync(f, 'utf8').split('\n').length - 1;
  const read = (f: string): SourceFile => ({ file: rel(f).split(path.sep).join('/'), text: readFileSync(f, 'utf8') });
  const sources = src.map(read);
  const buildFiles = [path.join(root, 'vite.config.ts'), ...walk(path.join(root, 'scripts'))].filter((f) => statSync(f, { throwIfNoEntry: false })).map(read);

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
    roomImports: roomImports(sources),
    longRouteFiles: longRouteFiles(sources),
    firstVisitDeepImports: firstVisitDeepImports([...sources, ...buildFiles]),
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
