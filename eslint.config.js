// Lint rules that guard the runtime boundaries (STYLE.md): workflows stay deterministic.
import tseslint from 'typescript-eslint';

const ioModules = ['undici', 'ioredis', 'playwright', 'playwright-core', 'pg', '@prisma/*', '*/prisma/*', '**/generated/**', 'koa', '@koa/*'];
const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'crypto', 'http', 'https', 'net', 'dns', 'dns/*', 'os', 'child_process', 'worker_threads', 'stream', 'timers', 'url', 'util', 'zlib', 'tls', 'events'];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dashboard/dist/', '.stack/', 'prisma/generated/', 'coverage/'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: [...nodeBuiltins, ...ioModules], message: 'Workflows are deterministic: no Node built-ins or I/O libraries. Do the work in an activity.' },
          { group: ['**/activities/*', '!**/activities/index.js'], message: 'Import activities by type only (import type).', allowTypeImports: true },
        ],
      }],
    },
  },
);
