// The two stylesheets of docs/styles.md, checked with Tailwind's own scanner (the one
// @tailwindcss/vite runs): src/index.css leaves the admin area's files out, src/styles/admin.css
// scans everything. scripts/css-split.test.ts holds both facts; run this file to list them:
// `node --import tsx scripts/css-split.ts`.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compile } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The admin area's route modules (src/app/router.tsx's '/admin' children, and src/app/admin-routes.tsx that
 * the router patches in): where the student graph stops. */
const ADMIN_ROUTE_MODULE = /^src\/app\/(routes\/admin\/|layout\/admin-layout\.tsx$|admin-routes\.tsx$)/;

/**
 * The files Tailwind reads class names from for a stylesheet: its `source(…)` and `@source` rules,
 * as @tailwindcss/vite applies them. `css` replaces the file's text (to try a rule out).
 */
export async function scannedFiles(stylesheet: string, css = readFileSync(stylesheet, 'utf8'), root = ROOT): Promise<Set<string>> {
  const base = path.dirname(stylesheet);
  const compiler = await compile(css, { base, onDependency: () => undefined });
  const sources =
    compiler.root === 'none' ? [] : compiler.root === null ? [{ base, pattern: '**/*', negated: false }] : [{ ...compiler.root, negated: false }];
  const scanner = new Scanner({ sources: [...sources, ...compiler.sources] });
  scanner.scan();
  return new Set(scanner.files.map((f) => path.relative(root, f).split(path.sep).join('/')));
}

function resolveImport(spec: string, from: string, root: string): string | null {
  const bare = spec.split('?')[0]!;
  const base = bare.startsWith('@/') ? path.join(root, 'src', bare.slice(2)) : bare.startsWith('.') ? path.resolve(path.dirname(from), bare) : null;
  if (!base) return null; // a package
  for (const file of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
    if (existsSync(file) && statSync(file).isFile()) return file;
  return null;
}

/**
 * Every module a student or public route can load: src/main.tsx and what it imports, statically or
 * with import(), except the admin area's route modules and what only they import.
 */
export function studentModules(root = ROOT): string[] {
  const seen = new Set<string>();
  const stack = [path.join(root, 'src/main.tsx')];
  while (stack.length) {
    const file = stack.pop()!;
    const rel = path.relative(root, file).split(path.sep).join('/');
    if (seen.has(rel) || ADMIN_ROUTE_MODULE.test(rel)) continue;
    seen.add(rel);
    if (!/\.tsx?$/.test(file)) continue;
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const next = resolveImport(imported.fileName, file, root);
      if (next) stack.push(next);
    }
  }
  return [...seen].filter((f) => /\.tsx?$/.test(f)).sort();
}

export interface CssSplitReport {
  /** Modules of the student routes whose class names src/index.css does not read: unstyled there. */
  studentModulesOutsideMainCss: string[];
  /** Files src/index.css reads that src/styles/admin.css does not: the admin sheet must hold every utility. */
  mainFilesOutsideAdminCss: string[];
  /** What the main stylesheet leaves out (for the listing). */
  leftOutOfMainCss: string[];
}

export async function checkCssSplit(root = ROOT, mainCss?: string): Promise<CssSplitReport> {
  const main = await scannedFiles(path.join(root, 'src/index.css'), mainCss, root);
  const admin = await scannedFiles(path.join(root, 'src/styles/admin.css'), undefined, root);
  return {
    studentModulesOutsideMainCss: studentModules(root).filter((f) => !main.has(f)),
    mainFilesOutsideAdminCss: [...main].filter((f) => !admin.has(f)).sort(),
    leftOutOfMainCss: [...admin].filter((f) => !main.has(f)).sort(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await checkCssSplit();
  for (const [fact, files] of Object.entries(report)) {
    console.log(`${fact.padEnd(30)} ${String(files.length).padStart(4)}`);
    for (const f of files) console.log(`    ${f}`);
  }
}
