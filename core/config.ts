/**
 * The one place that reads the environment. Each process calls `loadConfig(role)` once at boot;
 * a missing or malformed setting stops it with a message naming the variable.
 *
 * Precedence, highest first: the real environment, `.env.local`, `.env.<NODE_ENV>`, `.env`.
 * Files are read from the working directory at process start only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { Ajv } from 'ajv';
import { settings, type Role, type Setting, type SettingName } from './config-table.js';
import { billingProblems } from './billing-settings.js';
import { x402Problems } from './x402-settings.js';
import { countryProxySettings, ProxyPools, type ProxySettings } from './proxy-pools.js';

type ValueOf<S> = S extends { schema: { type: 'integer' | 'number' } }
  ? number
  : S extends { schema: { type: 'boolean' } }
    ? boolean
    : S extends { schema: { enum: readonly (infer E)[] } }
      ? E
      : string;
type Table = typeof settings;
type HasDefault<K extends SettingName> = Table[K] extends { default: unknown } ? K : never;
type Defaulted = { [K in SettingName]: HasDefault<K> }[SettingName];

/** Settings with a default are always present; the rest may be undefined unless the role requires them. */
export type Config = { readonly [K in Defaulted]: ValueOf<Table[K]> } & {
  readonly [K in Exclude<SettingName, Defaulted>]?: ValueOf<Table[K]>;
} & {
  /** PROXY_URLS_<CC> settings, by lower-case country code (not in the table: their names vary). */
  readonly PROXY_URLS_BY_COUNTRY: Readonly<Record<string, string>>;
};
export type RequiredFor<R extends Role, C = Config> = C & {
  readonly [K in SettingName as R extends NonNullable<(Table[K] & Setting)['requiredBy']>[number] ? K : never]-?: ValueOf<Table[K]>;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const ajv = new Ajv({ coerceTypes: true, allErrors: true, strict: false });

/** Read `.env`, `.env.<NODE_ENV>`, `.env.local` under `dir`, later files winning. */
export function readEnvFiles(dir: string, nodeEnv: string): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const name of ['.env', `.env.${nodeEnv}`, '.env.local']) {
    const file = join(dir, name);
    if (existsSync(file)) Object.assign(merged, parseEnv(readFileSync(file, 'utf8')));
  }
  return merged;
}

function coerce(name: string, setting: Setting, raw: string): { value?: unknown; problem?: string } {
  const holder = { v: raw.trim() as unknown };
  const validate = ajv.compile({ type: 'object', properties: { v: setting.schema } });
  if (validate(holder)) return { value: holder.v };
  const shown = setting.secret ? '(hidden)' : JSON.stringify(raw);
  // A regex is no help to a person reading a boot error: the doc line says what is expected.
  const why = validate.errors?.map((e) => (e.keyword === 'pattern' ? 'has the wrong format' : e.message)).join('; ') ?? 'invalid';
  return { problem: `${name}=${shown} is invalid: ${why}. ${setting.doc}` };
}

/**
 * Validate the environment for one process role. Throws ConfigError listing every problem.
 * `env` defaults to process.env merged over the .env files in `cwd`.
 */
export function loadConfig<R extends Role>(role: R, options: { env?: Record<string, string | undefined>; cwd?: string } = {}): RequiredFor<R> {
  const real = options.env ?? process.env;
  const nodeEnv = real.NODE_ENV ?? 'development';
  const files = options.env ? {} : readEnvFiles(options.cwd ?? process.cwd(), nodeEnv);
  const source: Record<string, string | undefined> = { ...files, ...real };
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, setting] of Object.entries(settings) as [SettingName, Setting][]) {
    const raw = source[name];
    if (raw === undefined || raw.trim() === '') {
      if (setting.requiredBy?.includes(role)) problems.push(`${name} is required but not set. ${setting.doc}`);
      else if (setting.default !== undefined) values[name] = setting.default;
      continue;
    }
    const { value, problem } = coerce(name, setting, raw);
    if (problem) problems.push(problem);
    else values[name] = value;
  }
  if (values.TEMPORAL_TLS_CERT_PATH !== undefined && values.TEMPORAL_TLS_KEY_PATH === undefined) {
    problems.push('TEMPORAL_TLS_KEY_PATH is required when TEMPORAL_TLS_CERT_PATH is set.');
  }
  if (values.NODE_ENV === 'production' && values.ALLOW_PRIVATE_ADDRESSES === true && values.ALLOW_PRIVATE_ADDRESSES_IN_PRODUCTION !== true) {
    problems.push(
      'ALLOW_PRIVATE_ADDRESSES=true is refused with NODE_ENV=production: it lets anyone with an API key reach your private network. ' +
        'Unset it, or set ALLOW_PRIVATE_ADDRESSES_IN_PRODUCTION=true if that is really intended.',
    );
  }
  if (values.OIDC_ISSUER !== undefined) {
    for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
      if (values[name] === undefined) problems.push(`${name} is required when OIDC_ISSUER is set. ${settings[name].doc}`);
    }
  }
  // Only the API takes payments; other processes may share its environment.
  if (role === 'api') problems.push(...x402Problems(values), ...billingProblems(values, source));
  // Proxy pools per country have names of their own (PROXY_URLS_DE, ...): README "Proxies".
  values.PROXY_URLS_BY_COUNTRY = countryProxySettings(source);
  try {
    ProxyPools.fromSettings(values as ProxySettings, values.PROXY_URLS_BY_COUNTRY as Record<string, string>);
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(values) as RequiredFor<R>;
}

/** Names of settings whose values must never be printed. */
export const secretNames: readonly string[] = Object.entries(settings)
  .filter(([, s]) => (s as Setting).secret)
  .map(([n]) => n);

/** For process entries: load or exit(1) with the message on stderr. */
export function loadConfigOrExit<R extends Role>(role: R): RequiredFor<R> {
  try {
    return loadConfig(role);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee README.md, "Configuration".\n`);
      process.exit(1);
    }
    throw err;
  }
}
