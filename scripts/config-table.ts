/**
 * Prints the README's configuration table from core/config-table.ts (`npm run config:table`).
 * test/readme.test.ts fails when the README's copy differs, so the two cannot drift.
 */
import { pathToFileURL } from 'node:url';
import { settings, type Setting } from '../core/config-table.js';

const roleNames = { api: 'API', worker: 'worker', browser: 'browser service', cli: 'keys command', migrate: 'migrations' } as const;

function describeType(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return (schema.enum as string[]).map((v) => `\`${v}\``).join(' \\| ');
  if (schema.type === 'integer' || schema.type === 'number') {
    const range = [schema.minimum, schema.maximum].every((v) => v !== undefined) ? ` ${schema.minimum}–${schema.maximum}` : schema.minimum !== undefined ? ` ≥ ${schema.minimum}` : '';
    return `${schema.type}${range}`;
  }
  if (schema.type === 'boolean') return 'boolean';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^postgres')) return 'postgres URL';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^redis')) return 'redis URL';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^https?')) return 'http(s) URL';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^\\$?')) return 'dollar price';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^0x')) return 'EVM address';
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^eip155')) return 'CAIP-2 network';
  if (typeof schema.minLength === 'number' && schema.minLength > 1) return `string, ${schema.minLength}+ chars`;
  return 'string';
}

export function configTableMarkdown(): string {
  const rows = Object.entries(settings as Record<string, Setting>).map(([name, s]) => {
    const required = s.requiredBy?.length ? `yes (${s.requiredBy.map((r) => roleNames[r]).join(', ')})` : 'no';
    const def = s.default === undefined ? '' : `\`${String(s.default)}\``;
    return `| \`${name}\` | ${describeType(s.schema)} | ${required} | ${def} | ${s.doc.replace(/\|/g, '\\|')} |`;
  });
  return ['| Variable | Type | Required | Default | Meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(configTableMarkdown());
