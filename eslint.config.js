// Lint rules: TypeScript strictness, React hooks, and the one-way import flow between the rooms of src
// (docs/conventions.md "Rooms"): app → features → concepts → components → platform → utils, each
// importing only rooms after it (types: anyone); no feature imports another feature.
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
    message: 'No app, estes são substitutos nunca lançados (src/platform/first-visit/stand-ins/): compare error.name.',
  },
  { name: 'zod', message: "Importe z de '@/platform/zod' (configurado para a CSP)." },
  { name: 'sonner', message: "Importe toast de '@/platform/toast' (carrega o sonner sob demanda e espera o <Toaster>)." },
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
            // The rooms below the features (each says what it holds in its README.md): a room imports
            // only the rooms after it in app → features → concepts → components → platform → utils.
            {
              target: './src/concepts',
              from: ['./src/features', './src/app'],
              message: 'Um conceito compartilhado (src/concepts) não importa recursos nem src/app: o que ele precisa de um recurso vem por props, ou é ele mesmo compartilhado.',
            },
            {
              target: './src/components',
              from: ['./src/concepts', './src/features', './src/app'],
              message: 'Componentes de base (src/components) não conhecem conceitos nem recursos: um componente de um conceito fica em src/concepts.',
            },
            {
              target: './src/platform',
              from: ['./src/components', './src/concepts', './src/features', './src/app'],
              message: 'A plataforma (src/platform) não importa componentes, conceitos nem recursos.',
            },
            {
              target: './src/utils',
              from: ['./src/platform', './src/components', './src/concepts', './src/features', './src/app'],
              message: 'Utilitários (src/utils) não importam nada acima deles.',
            },
            {
              target: './src/types',
              from: ['./src/utils', './src/platform', './src/components', './src/concepts', './src/features', './src/app'],
              message: 'Os tipos gerados não importam código.',
            },
            // The first visit is one module (docs/first-visit.md): the app's code reaches it through its
            // index.ts, the build (vite.config.ts and the page table it reads) through vite-plugin.ts.
            {
              target: ['./src/app', './src/features', './src/concepts', './src/components', './src/utils', './src/test', './src/platform/*.ts', './src/main.tsx'],
              from: './src/platform/first-visit',
              except: ['./index.ts', './vite-plugin.ts'],
              message: "Importe de '@/platform/first-visit' (a única porta do módulo; docs/first-visit.md).",
            },
            // Components reach the database through their feature's api/hooks.ts (ARCHITECTURE.md).
            {
              target: ['./src/features/*/components/**', './src/components/**', './src/app/**/*.tsx'],
              from: ['./src/platform/supabase.ts', './src/platform/functions.ts'],
              message: 'Componentes não usam o cliente: chame os hooks de api/hooks.ts do recurso.',
            },
          ],
        },
      ],
      // The SPA's build replaces these supabase-js re-exports with stand-ins that are never thrown
      // (src/platform/first-visit/stand-ins/storage.ts, functions.ts): an instanceof against them is always false.
      'no-restricted-imports': restrictedImports(),
    },
  },
  // The one module that configures zod, and the one that loads sonner: each may import only its own.
  { files: ['src/platform/zod.ts'], rules: { 'no-restricted-imports': restrictedImports('zod') } },
  { files: ['src/platform/toast.ts'], rules: { 'no-restricted-imports': restrictedImports('sonner') } },
  prettier,
);
