/** The real worker entry (worker/main.ts) as a child process, so a test can kill it like a crash would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testEnv } from './env.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the worker logged that it is polling. */
  ready: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function spawnWorker(env: Record<string, string>): WorkerProcess {
  let output = '';
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'worker/main.ts')], {
    cwd: mkdtempSync(join(tmpdir(), 'worker-')),
    env: { PATH: process.env.PATH ?? '', ...testEnv({ LOG_LEVEL: 'info', ...env }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker polling')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling:\n${output.slice(-3000)}`)));
  });
  return {
    child,
    output: () => output,
    ready,
    kill: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
