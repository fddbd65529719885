/**
 * The supervisor `./scripts/stack up` puts around the api, worker and browser service, against
 * real child processes: restarts and their waits (counted, never timed), the reset after a healthy
 * run, the crash-loop message, and stop() ending everything without calling it a crash. Uptimes
 * come from a clock the test moves, so "stayed up 60 s" needs no waiting.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../scripts/infra/apps.js';
import { runOutput, spawnChild, type Child } from '../scripts/infra/child.js';
import { isAlive } from '../scripts/infra/pid-files.js';
import { defaultBackoff, restartDelay, supervise, type SuperviseOptions, type Supervisor } from '../scripts/infra/supervise.js';
import { waitFor } from './fixtures/receiver.js';
import { testEnv } from './helpers/env.js';
import { uniqueTaskQueue } from './helpers/worker.js';

const dir = mkdtempSync(join(tmpdir(), 'stack-supervisor-'));
const supervisors: Supervisor[] = [];
afterAll(async () => {
  await Promise.allSettled(supervisors.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** Each run logs `run <n>` (n counted in `counter`, across runs), then does what `behaviour` says. */
const script = [
  "const fs = require('node:fs');",
  'const [counter, behaviour] = process.argv.slice(1);',
  "fs.appendFileSync(counter, 'x');",
  "const n = fs.readFileSync(counter, 'utf8').length;",
  "console.log('run ' + n);",
  'eval(behaviour);',
].join(' ');
const stayUp = 'setInterval(() => undefined, 1000);';

/** A supervised node process; `restarts()` counts the starts after the first, `runs()` all of them. */
function start(name: string, behaviour: string, options: Partial<SuperviseOptions> = {}) {
  const counter = join(dir, `${name}.count`);
  const logFile = join(dir, `${name}.log`);
  const spawn = () => spawnChild({ name, command: process.execPath, args: ['-e', script, counter, behaviour], logFile });
  const lines: string[] = [];
  let restarted = 0;
  const first = spawn();
  const supervisor = supervise(first, {
    restart: () => {
      restarted++;
      return spawn();
    },
    log: (text) => lines.push(text),
    initialDelayMs: 10,
    maxDelayMs: 30,
    healthyAfterMs: 60_000,
    crashLoopAfter: 5,
    now: () => 0,
    ...options,
  });
  supervisors.push(supervisor);
  return { supervisor, first, lines, logFile, restarts: () => restarted, runs: () => (existsSync(counter) ? readFileSync(counter, 'utf8').length : 0) };
}

const summary = (s: Supervisor) => s.restarts.map((r) => ({ code: r.exit.code, signal: r.exit.signal, inARow: r.inARow, delayMs: r.delayMs }));
const running = (s: Supervisor, notPid?: number) => s.child().running() && s.child().pid !== notPid && s.child();

describe('restartDelay', () => {
  it('doubles from the initial wait, stops at the cap, and waits the cap from the crash-loop threshold on', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => restartDelay(n, defaultBackoff))).toEqual([1000, 2000, 4000, 8000, 30_000, 30_000, 30_000]);
    const noLoop = { ...defaultBackoff, crashLoopAfter: 100 };
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => restartDelay(n, noLoop))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });
});

describe('stack supervisor', () => {
  it('restarts a process that keeps crashing with doubling waits up to the cap, says when it is crash-looping, and keeps the run that stays up', async () => {
    // Runs 1-5 crash (run 2 by a signal), run 6 stays up.
    const behaviour = `if (n === 2) process.kill(process.pid, 'SIGKILL'); else if (n <= 5) process.exit(3); else ${stayUp}`;
    const { supervisor, lines, logFile, restarts, runs } = start('crashy', behaviour);
    const sixth = await waitFor(() => runs() === 6 && running(supervisor));

    expect(summary(supervisor)).toEqual([
      { code: 3, signal: null, inARow: 1, delayMs: 10 },
      { code: null, signal: 'SIGKILL', inARow: 2, delayMs: 20 },
      { code: 3, signal: null, inARow: 3, delayMs: 30 },
      { code: 3, signal: null, inARow: 4, delayMs: 30 },
      { code: 3, signal: null, inARow: 5, delayMs: 30 },
    ]);
    expect(restarts()).toBe(5);
    const log = relative(process.cwd(), logFile);
    // Which process, how it ended, the wait, the log file, and the tail of this run's output.
    const [headline, ...tail] = lines[0]!.split('\n');
    expect(headline).toBe(`crashy exited with code 3 after 0 ms; restarting it in 10 ms (log: ${log})`);
    expect(tail).toEqual([expect.stringMatching(/^ {2}\| --- \S+ starting crashy: /), '  | run 1']);
    expect(lines[2]).toMatch(/^crashy was killed by SIGKILL after 0 ms; restarting it in 20 ms \(log: .*\)\n {2}\| --- .*\n {2}\| run 2$/);
    expect(lines.filter((l) => l.startsWith('crashy restarted (pid '))).toHaveLength(5);
    expect(lines.filter((l) => l.includes('keeps crashing'))).toEqual([
      `crashy keeps crashing: 5 times in a row within 60 s of starting. Retrying every 30 ms until it stays up; the cause is in ${log}`,
    ]);

    await supervisor.stop();
    expect(isAlive(sixth.pid!)).toBe(false);
    expect(restarts()).toBe(5);
    expect(supervisor.restarts).toHaveLength(5);
    expect(runs()).toBe(6);
  });

  it('restarts a process killed by SIGKILL from outside, and starts again from the first wait after a healthy run', async () => {
    let clock = 0;
    const { supervisor, first, restarts } = start('killed', stayUp, { now: () => clock });
    const pids = [first.pid!];
    const killAndWaitForNext = async () => {
      const current = await waitFor(() => running(supervisor));
      process.kill(current.pid!, 'SIGKILL');
      const next = await waitFor(() => running(supervisor, current.pid));
      pids.push(next.pid!);
    };
    await killAndWaitForNext();
    await killAndWaitForNext();
    clock += 60_000; // the third run stayed up for the healthy time
    await killAndWaitForNext();

    expect(summary(supervisor)).toEqual([
      { code: null, signal: 'SIGKILL', inARow: 1, delayMs: 10 },
      { code: null, signal: 'SIGKILL', inARow: 2, delayMs: 20 },
      { code: null, signal: 'SIGKILL', inARow: 1, delayMs: 10 },
    ]);
    expect(supervisor.restarts.map((r) => r.uptimeMs)).toEqual([0, 0, 60_000]);
    expect(new Set(pids).size).toBe(4);

    await supervisor.stop();
    expect(pids.map(isAlive)).toEqual([false, false, false, false]);
    expect(restarts()).toBe(3);
  });

  it('stop() while a restart waits cancels it: nothing is started again', async () => {
    const { supervisor, lines, restarts, runs } = start('waiting', 'process.exit(1)', { initialDelayMs: 600_000, maxDelayMs: 600_000 });
    await waitFor(() => supervisor.restarts.length === 1);
    const outcome = await Promise.race([supervisor.stop().then(() => 'stopped'), sleep(20_000).then(() => 'still waiting')]);

    expect(outcome).toBe('stopped');
    expect(summary(supervisor)).toEqual([{ code: 1, signal: null, inARow: 1, delayMs: 600_000 }]);
    expect(restarts()).toBe(0);
    expect(runs()).toBe(1);
    expect(lines.filter((l) => l.includes('restarted'))).toEqual([]);
  });

  it('refuses backoff options that cannot work, naming them', async () => {
    const child = spawnChild({ name: 'options', command: process.execPath, args: ['-e', stayUp], logFile: join(dir, 'options.log') });
    try {
      expect(() => supervise(child, { restart: () => child, log: () => undefined, initialDelayMs: 1000, maxDelayMs: 500 })).toThrow(
        new RangeError('supervise(options): needs 0 < initialDelayMs <= maxDelayMs and crashLoopAfter >= 1 (got 1000, 500, 5)'),
      );
    } finally {
      await child.stop();
    }
  });

  it('stop() ends a running process and its exit, whatever the code, is not taken for a crash', async () => {
    // Exits non-zero on SIGTERM, as a shutdown that goes wrong might; says so once its handler is in
    // place (a SIGTERM before that would end it by the signal).
    const { supervisor, first, lines, restarts } = start('stopped', `process.on('SIGTERM', () => process.exit(7)); console.log('handler set in run ' + n); ${stayUp}`);
    await waitFor(() => readFileSync(join(dir, 'stopped.log'), 'utf8').includes('handler set in run 1'));
    await supervisor.stop();

    expect(await first.exited).toEqual({ code: 7, signal: null });
    expect(isAlive(first.pid!)).toBe(false);
    expect(supervisor.restarts).toEqual([]);
    expect(restarts()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('the real worker (started as `up` starts it) polls again after a SIGKILL, and stop() ends it', async () => {
    const env = { PATH: process.env.PATH, ...testEnv({ LOG_LEVEL: 'info', TEMPORAL_TASK_QUEUE: uniqueTaskQueue('supervised') }) };
    const logDir = join(dir, 'logs');
    const polling = (child: Child) => runOutput(child).includes('worker polling');
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
    const startWorker = () => startApp('worker', env, logDir, join(dir, 'run'), quiet);
    const lines: string[] = [];
    const first = startWorker();
    const supervisor = supervise(first, { restart: startWorker, log: (l) => lines.push(l), initialDelayMs: 10 });
    supervisors.push(supervisor);
    await waitFor(() => polling(first), 120_000);
    if (!first.running()) throw new Error(`the worker ended by itself before the test killed it:\n${lines.join('\n')}`);

    process.kill(first.pid!, 'SIGKILL');
    const second = await waitFor(() => running(supervisor, first.pid), 30_000);
    await waitFor(() => polling(second), 120_000);

    expect(summary(supervisor)).toEqual([{ code: null, signal: 'SIGKILL', inARow: 1, delayMs: 10 }]);
    expect(lines[0]).toMatch(/^worker was killed by SIGKILL after .*; restarting it in 10 ms \(log: .*worker\.log\)\n/);
    expect(lines[1]).toBe(`worker restarted (pid ${second.pid})`);

    await supervisor.stop();
    expect([isAlive(first.pid!), isAlive(second.pid!)]).toEqual([false, false]);
    expect(supervisor.restarts).toHaveLength(1);
  }, 300_000);
});
