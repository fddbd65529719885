/**
 * A small round-robin HTTP proxy in a process of its own, standing for the load balancer in front of
 * API replicas (bench/scale-out.ts): each request goes to the next target in turn, kept-alive, body
 * and answer streamed through. Forked by `startRoundRobin`, which resolves with its address and pid.
 */
import { fork } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

function serve(targets: URL[]): void {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server = createServer((req, res) => {
    const target = targets[next++ % targets.length];
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.headersSent ? res.destroy() : res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.on('disconnect', () => process.exit(0));
}

export async function startRoundRobin(targets: string[]): Promise<{ url: string; pid: number; stop(): void }> {
  const child = fork(fileURLToPath(import.meta.url), targets, { execArgv: ['--import', import.meta.resolve('tsx')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`the round-robin proxy exited with code ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill() };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(process.argv.slice(2).map((t) => new URL(t)));
