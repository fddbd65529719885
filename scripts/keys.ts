/**
 * Operators' API-key command (`npm run keys -- <command>`):
 *   create [--name NAME] [--if-none]   print a new key once (with --if-none: only when no active key exists)
 *   list                               prefix, name, created, last used, revoked
 *   revoke <id|prefix>                 reject the key from now on
 * Reads DATABASE_URL and API_KEY_PEPPER like every process (see README, "Configuration").
 */
import { parseArgs } from 'node:util';
import { countActiveKeys, createKey, listKeys, revokeKey } from '../api/keys-store.js';
import { loadConfigOrExit } from '../core/config.js';
import { createPrisma } from '../prisma/client.js';
import { runCli } from './infra/run-cli.js';

const usage = 'usage: keys create [--name NAME] [--if-none] | keys list | keys revoke <id|prefix>';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string', default: 'default' }, 'if-none': { type: 'boolean', default: false } },
  });
  const [command, target] = positionals;
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    console.error(usage);
    return 2;
  }
  const config = loadConfigOrExit('cli');
  const prisma = createPrisma(config.DATABASE_URL);
  try {
    if (command === 'create') {
      if (values['if-none'] && (await countActiveKeys(prisma)) > 0) return 0;
      const { id, key } = await createKey(prisma, values.name, config.API_KEY_PEPPER);
      console.error(`Created API key "${values.name}" (id ${id}). It is shown once; store it now:`);
      console.log(key);
    } else if (command === 'list') {
      const rows = await listKeys(prisma);
      if (!rows.length) console.error('No API keys. Create one with: npm run keys -- create --name NAME');
      for (const k of rows) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        console.log([k.prefix + '…', k.id, JSON.stringify(k.name), `created ${k.createdAt.toISOString()}`, `last used ${k.lastUsedAt?.toISOString() ?? 'never'}`, state].join('\t'));
      }
    } else {
      if (!target) {
        console.error(usage);
        return 2;
      }
      const n = await revokeKey(prisma, target);
      if (n === 0) {
        console.error(`No active key with id or prefix ${JSON.stringify(target)}. See: npm run keys -- list`);
        return 1;
      }
      console.error(`Revoked ${n} key${n > 1 ? 's' : ''}.`);
    }
    return 0;
  } finally {
    await prisma.$disconnect();
  }
}

runCli(main);
