// Lint rules: TypeScript strictness, React hooks, and the one-way import flow of ARCHITECTURE.md
// (app → features → components/lib/types; no feature imports another feature).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const features = readdirSync('./src/features', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const RESTRICTED_IMPORTS = [
  {
    name: '@supabase/supabase-js',
    importNames: ['StorageApiError', 'FunctionsError', 'FunctionsFetchError', 'FunctionsHttpError', 'FunctionsRelayError', 'FunctionRegion'],
    message: 'No app, estes são substitutos nunca lançados (src/lib/*-lazy.ts): compare error.name.',
  },
  { name: 'zod', message: "Importe z de '@/lib/zod' (configurado para a CSP)." },
  { name: 'sonner', message: "Importe toast de '@/lib/toast' (carrega o sonner sob demanda e espera o <Toaster>)." },
];

/** The app's restricted imports, except the one package a module exists to wrap. */
const restrictedImports = (allowed) => ['error', { paths: RESTRICTED_IMPORTS.filter((p) => p.name !== allowed) }];

export default tseslint.config(
  { ignores: ['dist', 'dist-*', 'node_modules', '.local-supabase', 'src/types/database.ts', 'supabase/functions', 'test-results*', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.app.json', 'tsconfig.node.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // No feature imports another feature: compose them in src/app.
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`],
              message: 'Um recurso não importa outro: componha-os em src/app.',
            })),
            { target: './src/features', from: './src/app', message: 'features não importam src/app.' },
            {
              target: ['./src/components', './src/lib', './src/types'],
              from: ['./src/features', './src/app'],
              message: 'Código compartilhado não importa features nem app.',
            },
            // Components reach the database through their feature's api/hooks.ts (ARCHITECTURE.md).
            {
              target: ['./src/features/*/components/**', './src/components/**', './src/app/**/*.tsx'],
              from: ['./src/lib/supabase.ts', './src/lib/functions.ts'],
              message: 'Componentes não usam o cliente: chame os hooks de api/hooks.ts do recurso.',
            },
          ],
        },
      ],
      // The SPA's build replaces these supabase-js re-exports with stand-ins that are never thrown
      // (src/lib/storage-lazy.ts, functions-lazy.ts): an instanceof against them is always false.
      'no-restricted-imports': restrictedImports(),
    },
  },
  // The one module that configures zod, and the one that loads sonner: each may import only its own.
  { files: ['src/lib/zod.ts'], rules: { 'no-restricted-imports': restrictedImports('zod') } },
  { files: ['src/lib/toast.ts'], rules: { 'no-restricted-imports': restrictedImports('sonner') } },
  prettier,
);
