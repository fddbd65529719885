// Lint rules that guard the runtime boundaries (STYLE.md): workflows stay deterministic, and no
// process's folder imports another's (shared code lives in core/, egress/, browser/, jobs/, telemetry/, prisma/).
import tseslint from 'typescript-eslint';

/** The folders of each process. */
const processFolders = { api: ['api'], worker: ['worker', 'activities', 'workflows'], browserService: ['browser-service'] };
const shared = ['core', 'egress', 'browser', 'jobs', 'telemetry', 'prisma'];
/** An import pattern forbidding the folders of every process but `own` (none for shared code). */
function otherProcesses(own) {
  const others = Object.entries(processFolders).filter(([name]) => name !== own).flatMap(([, folders]) => folders);
  return { group: others.flatMap((f) => [`**/${f}/*`, `**/${f}/**`]), message: 'One process does not import another process\'s code: move what both need to core/, egress/, browser/, jobs/, telemetry/ or prisma/.' };
}

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
  ...Object.entries(processFolders).flatMap(([name, folders]) => folders.filter((f) => f !== 'workflows').map((f) => ({
    files: [`${f}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherProcesses(name)] }] },
  }))),
  {
    files: shared.map((f) => `${f}/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherProcesses(undefined)] }] },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          otherProcesses('worker'),
          { group: [...nodeBuiltins, ...ioModules], message: 'Workflows are deterministic: no Node built-ins or I/O libraries. Do the work in an activity.' },
          { group: ['**/activities/*', '!**/activities/index.js'], message: 'Import activities by type only (import type).', allowTypeImports: true },
        ],
      }],
    },
  },
);
