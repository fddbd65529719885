/**
 * `.stack/env`: the settings `up` hands to the api, worker and browser service, written out so a
 * developer can reuse them (`set -a; . .stack/env; set +a; npx tsx scripts/keys.ts list`).
 * Addresses are rewritten on every `up`; generated secrets are created once and kept (changing
 * API_KEY_PEPPER would invalidate every key); lines a developer adds by hand are kept too.
 * randomBytes(32) in base64url is 43 characters, above every minimum length in the table.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { settings, type Setting } from '../../core/config-table.js';

export function readEnvFile(file: string): Record<string, string> {
  return existsSync(file) ? (parseEnv(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]*$/.test(value) ? value : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

export function writeEnvFile(file: string, values: Record<string, string>, header: string): void {
  const lines = Object.entries(values).map(([k, v]) => `${k}=${quote(v)}`);
  writeFileSync(file, `${header.replace(/^/gm, '# ')}\n${lines.join('\n')}\n`, { mode: 0o600 });
}

export interface StackAddresses {
  databaseUrl: string;
  redisUrl: string;
  temporalAddress: string;
  temporalUiUrl?: string;
  apiPort: number;
  browserPort: number;
  chromiumPath: string;
}

/**
 * Secrets to generate: every secret some process requires (read from the config table, so a new
 * one needs no change here), except connection strings, plus the browser-service token so the
 * local browser service is not open to other local users.
 */
const addressNames = new Set(['DATABASE_URL', 'REDIS_URL']);
export const generatedSecretNames: readonly string[] = [
  ...(Object.entries(settings) as [string, Setting][])
    .filter(([name, s]) => s.secret && s.requiredBy?.length && !addressNames.has(name))
    .map(([name]) => name),
  'BROWSER_ENGINE_TOKEN',
];

/** The env for the stack's processes: previous file (secrets, hand-added lines) overlaid with current addresses. */
export function stackEnv(previous: Record<string, string>, a: StackAddresses): Record<string, string> {
  const secrets = Object.fromEntries(generatedSecretNames.map((name) => [name, previous[name] || randomBytes(32).toString('base64url')]));
  const apiUrl = `http://127.0.0.1:${a.apiPort}`;
  return {
    ...previous,
    NODE_ENV: 'development',
    DATABASE_URL: a.databaseUrl,
    REDIS_URL: a.redisUrl,
    TEMPORAL_ADDRESS: a.temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    ...(a.temporalUiUrl ? { TEMPORAL_UI_URL: a.temporalUiUrl } : {}),
    ...secrets,
    API_HOST: '127.0.0.1',
    API_PORT: String(a.apiPort),
    AUTH_URL: apiUrl,
    // Both spellings of loopback, so a browser page on either can call the API.
    CORS_ORIGIN: `${apiUrl},http://localhost:${a.apiPort}`,
    // Fail closed even locally; set it to true by hand to scrape fixtures on loopback.
    ALLOW_PRIVATE_ADDRESSES: previous.ALLOW_PRIVATE_ADDRESSES ?? 'false',
    PORT: String(a.browserPort),
    BROWSER_SERVICE_HOST: '127.0.0.1',
    BROWSER_ENGINE_URL: `http://127.0.0.1:${a.browserPort}`,
    CHROMIUM_PATH: a.chromiumPath,
  };
}
