/**
 * Operators' dashboard-user command (`npm run users -- <command>`):
 *   create --email E [--role admin|member] [--account ID] [--if-none] [--password-stdin]
 *                               make a user; prints a generated password once (with --if-none: only
 *                               when no user exists at all, as ./scripts/stack up does for the first admin)
 *   reset-password --email E [--password-stdin]
 *                               set a new generated password, printed once; ends the user's sessions
 *   list                        e-mail, role, account, created
 * With --password-stdin the password is read from standard input instead of generated (never from
 * the command line, where other users of the machine could read it).
 * Reads DATABASE_URL like every process (see README, "Configuration").
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createUser, setPassword } from '../api/accounts-store.js';
import { DEFAULT_ACCOUNT_ID } from '../api/keys-store.js';
import { loadConfigOrExit } from '../core/config.js';
import { createPrisma, userRoles, type UserRole } from '../prisma/client.js';
import { runCli } from './infra/run-cli.js';

const usage = 'usage: users create --email EMAIL [--role admin|member] [--account ID] [--if-none] [--password-stdin] | users reset-password --email EMAIL [--password-stdin] | users list';

/** Generated, or the first line of standard input with --password-stdin. */
const newPassword = (fromStdin: boolean) => (fromStdin ? readFileSync(0, 'utf8').split(/\r?\n/)[0]! : randomBytes(15).toString('base64url'));

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, role: { type: 'string', default: 'member' }, account: { type: 'string', default: DEFAULT_ACCOUNT_ID }, 'if-none': { type: 'boolean', default: false }, 'password-stdin': { type: 'boolean', default: false } },
  });
  const [command] = positionals;
  if (!command || !['create', 'reset-password', 'list'].includes(command) || (command !== 'list' && !values.email)) {
    console.error(usage);
    return 2;
  }
  if (!userRoles.includes(values.role as UserRole)) {
    console.error(`--role must be admin or member, not ${JSON.stringify(values.role)}`);
    return 2;
  }
  const config = loadConfigOrExit('cli');
  const prisma = createPrisma(config.DATABASE_URL);
  try {
    if (command === 'create') {
      if (values['if-none'] && (await prisma.user.count()) > 0) return 0;
      const password = newPassword(values['password-stdin']);
      const user = await createUser(prisma, { accountId: values.account, email: values.email!, password, role: values.role as UserRole });
      console.error(`Created ${user.role} ${user.email} in account ${user.accountId}. The password is shown once; store it now:`);
      console.log(password);
    } else if (command === 'reset-password') {
      const password = newPassword(values['password-stdin']);
      if (!(await setPassword(prisma, values.email!, password))) {
        console.error(`No user with the e-mail ${values.email}. See: npm run users -- list`);
        return 1;
      }
      console.error(`New password for ${values.email} (their sessions have ended). Shown once:`);
      console.log(password);
    } else {
      const rows = await prisma.user.findMany({ orderBy: { createdAt: 'asc' }, select: { email: true, role: true, accountId: true, createdAt: true, oidcSubject: true } });
      if (!rows.length) console.error('No users. Create one with: npm run users -- create --email EMAIL --role admin');
      for (const u of rows) console.log([u.email, u.role, `account ${u.accountId}`, `created ${u.createdAt.toISOString()}`, u.oidcSubject ? 'oidc' : 'password'].join('\t'));
    }
    return 0;
  } finally {
    await prisma.$disconnect();
  }
}

runCli(main);
