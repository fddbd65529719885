/** The README's configuration table is the config table; its quick start is the two commands CI runs. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configTableMarkdown } from '../scripts/config-table.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');

describe('README', () => {
  it('carries the configuration table exactly as core/config-table.ts defines it (npm run config:table)', () => {
    expect(readme).toContain(configTableMarkdown());
  });

  it('has a two-command quick start whose test command is the one CI runs', () => {
    const quickStart = readme.split('## Quick start')[1]!.split('\n## ')[0]!;
    const commands = [...quickStart.matchAll(/```(?:bash|sh)\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trim().split('\n')).filter((l) => !l.startsWith('#'));
    expect(commands).toEqual(['./scripts/stack up', './scripts/stack test']);
    expect(ci).toMatch(/^\.\/scripts\/stack test\s*$/m);
  });
});
