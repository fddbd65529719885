/**
 * The whole back end inside one test file: a real API and a real worker sharing a task queue of
 * their own, against the global PostgreSQL, Redis and Temporal, plus an API key to call it with.
 */
import { createKey } from '../../api/keys-store.js';
import { NO_RATE_LIMITS } from '../../scripts/infra/throwaway.js';
import { startTestApi, type TestApi } from './api.js';
import { TEST_PEPPER } from './env.js';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from './worker.js';

export interface TestStack {
  api: TestApi;
  worker: TestWorker;
  key: string;
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  get(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
  call(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Stops the worker (as a redeploy would) and starts a new one on the same task queue. */
  restartWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `apiPort`: when the API's address must be known before it starts (an identity provider's redirect URI).
 * `noWorker`: no worker in this process; the test runs its own on `worker.taskQueue` (see startApiOnly).
 */
export async function startTestStack(env: Record<string, string | undefined> = {}, options: { apiPort?: number; noWorker?: boolean } = {}): Promise<TestStack> {
  // Rate limits off: a test file may start more crawls a minute than a caller would (test/rate-limit.test.ts tests them).
  const shared = { ALLOW_PRIVATE_ADDRESSES: 'true', TEMPORAL_TASK_QUEUE: uniqueTaskQueue(), ...NO_RATE_LIMITS, ...env };
  const none: TestWorker = { taskQueue: shared.TEMPORAL_TASK_QUEUE, stop: async () => undefined };
  const [api, firstWorker] = await Promise.all([startTestApi({ env: shared, port: options.apiPort }), options.noWorker ? none : startTestWorker(shared)]);
  let worker = firstWorker;
  const { key } = await createKey(api.deps.prisma, 'stack-test', TEST_PEPPER);
  const call = async (method: string, path: string, body?: unknown, as = key) => {
    const res = await fetch(api.url + path, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return {
    api,
    get worker() {
      return worker;
    },
    key,
    post: (path, body) => call('POST', path, body),
    get: (path) => call('GET', path),
    call,
    async restartWorker() {
      await worker.stop();
      worker = await startTestWorker(shared);
    },
    async close() {
      await api.close();
      await worker.stop();
    },
  };
}

/**
 * An API on a task queue of its own and no worker in this process: the test starts workers as child
 * processes, like a deployment's, on `stack.worker.taskQueue`.
 */
export function startApiOnly(env: Record<string, string | undefined> = {}): Promise<TestStack> {
  return startTestStack({ TEMPORAL_TASK_QUEUE: uniqueTaskQueue('processes'), ...env }, { noWorker: true });
}
