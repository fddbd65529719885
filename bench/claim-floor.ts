/**
 * What a claim from the head of a crawl's queue costs as the crawl grows (issue 26): a lane run's
 * first claim, and every claim of a lane that has caught up with the end of the queue. Every URL
 * claimed leaves a dead entry in job_url's (job_id, status, id) index until VACUUM removes it or a
 * scan finds it dead to every transaction; while a long transaction holds the oldest snapshot back (a
 * report, a backup; `--no-hold` for none) neither can happen. A claim from the head starts at the
 * crawl's queue floor (prisma/migrations/20261127030000_claim_floor); the baseline, measured in the
 * same run on the same crawl, is the same claim with the floor put back to 0 first: the head claim
 * as it was before the floor, which walked from the crawl's first URL.
 *
 *   npm run bench:claim-floor [-- --urls 20000 --every 2000 --no-hold]
 *
 * One crawl of `--urls` queued URLs on a throwaway PostgreSQL; one lane claims them 8 at a time past
 * its last claim and settles each batch (status done), and every `--every` URLs a claim from the
 * head are timed: from the floor as the previous one left it, again at once (the floor then at the
 * head), and from 0 (median of 5).
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { claimBatch } from '../activities/crawl/frontier.js';
import { createJobRow } from '../jobs/rows.js';
import { createPrisma, type PrismaClient } from '../prisma/client.js';
import { installSignalCleanup } from '../scripts/infra/child.js';
import { startPostgres } from '../scripts/infra/postgres.js';
import { applyMigrations } from '../scripts/infra/project-files.js';
import { freePort } from '../scripts/infra/ready.js';
import { loadStackConfig } from '../scripts/stack-config.js';

const { values: args } = parseArgs({
  options: {
    urls: { type: 'string', default: '20000' },
    every: { type: 'string', default: '2000' },
    'no-hold': { type: 'boolean', default: false },
  },
});
const URLS = Number(args.urls);
const EVERY = Number(args.every);
for (const [name, v] of [['urls', URLS], ['every', EVERY]] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
}
const WIDTH = 8;
const SAMPLES = 5;

/** One claim from the head (after = 0), timed; its URLs are put back as they were. */
async function headClaim(prisma: PrismaClient, crawlId: string, fromZero: boolean): Promise<number> {
  if (fromZero) await prisma.$executeRaw`UPDATE job SET queue_floor = 0 WHERE id = ${crawlId}`;
  const started = performance.now();
  const rows = await claimBatch(prisma, crawlId, 'head', WIDTH);
  const ms = performance.now() - started;
  // Back to the queue without moving the floor (they are above it): the lane claims them next.
  await prisma.$executeRaw`UPDATE job_url SET status = 'queued', claimed_by = NULL, attempts = attempts - 1 WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`;
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

installSignalCleanup();
const root = mkdtempSync(join(tmpdir(), 'pagewright-claim-floor-'));
chmodSync(root, 0o755); // PostgreSQL runs as the postgres user when we are root.
const stack = loadStackConfig();
const pgHandle = await startPostgres({ dataDir: join(root, 'pg'), port: await freePort(), binDir: stack.STACK_PG_BIN_DIR, database: 'pagewright_claim_floor', ephemeral: true, pidDir: join(root, 'run'), timeoutMs: stack.STACK_READY_TIMEOUT_MS });
let failed = false;
const holder = new pg.Client({ connectionString: pgHandle.url });
try {
  await applyMigrations(pgHandle.url);
  const prisma = createPrisma(pgHandle.url);
  const id = randomUUID();
  const origin = 'http://claim-floor.bench.test';
  await prisma.$transaction((tx) => createJobRow(tx, { id, kind: 'crawl', seed: new URL(`${origin}/`), options: { url: `${origin}/`, limit: URLS }, apiKeyId: null, payer: 'bench', ttlSeconds: 3600 }));
  await prisma.$executeRaw`
    INSERT INTO job_url (job_id, url_key, url, depth, discovery_depth)
    SELECT ${id}, 'claim-floor.bench.test/p' || i, ${origin} || '/p' || i, 1, 1 FROM generate_series(1, ${URLS}) AS i`;
  await prisma.$executeRaw`UPDATE job SET total = ${URLS}, discovery_done = true WHERE id = ${id}`;
  await prisma.$executeRaw`ANALYZE job_url`;
  if (!args['no-hold']) {
    await holder.connect();
    await holder.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await holder.query('SELECT count(*) FROM job');
  }
  console.log(`${URLS} queued URLs, one lane claiming ${WIDTH} at a time; ${args['no-hold'] ? 'no transaction held open' : 'a transaction holds the oldest snapshot open throughout'}. Claims from the first URL: median of ${SAMPLES}.`);
  console.log(`| URLs claimed | head claim from the floor (${EVERY} URLs claimed since the last) | again, at once | from the first URL (before the floor) | ratio first URL / floor |`);
  console.log('|---|---|---|---|---|');
  let after = 0n;
  let claimed = 0;
  while (claimed < URLS) {
    if (claimed % EVERY === 0 && claimed > 0) {
      // From the floor as the last head claim left it (`--every` URLs ago), then from the first URL.
      const floor = await headClaim(prisma, id, false);
      const zero: number[] = [];
      for (let i = 0; i < SAMPLES; i++) zero.push(await headClaim(prisma, id, true));
      const again = await headClaim(prisma, id, false);
      console.log(`| ${claimed} | ${floor.toFixed(2)} ms | ${again.toFixed(2)} ms | ${median(zero).toFixed(2)} ms | ×${(median(zero) / floor).toFixed(1)} |`);
    }
    const rows = await claimBatch(prisma, id, 'lane', WIDTH, after);
    if (rows.length === 0) throw new Error(`the lane found nothing to claim after ${claimed} URLs`);
    after = rows[rows.length - 1]!.id;
    await prisma.$executeRaw`UPDATE job_url SET status = 'done' WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`;
    claimed += rows.length;
  }
  await prisma.$disconnect();
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  await holder.end().catch(() => undefined);
  await pgHandle.stop();
  rmSync(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
