/** Start the real Koa app on an ephemeral port against the test PostgreSQL, Redis and Temporal. */
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/app.js';
import { createApiDeps, type ApiDeps } from '../../api/deps.js';
import type { RouteSpec } from '../../api/route.js';
import { apiRoutes } from '../../api/routes/index.js';
import { createLogger } from '../../core/log.js';
import { testConfig } from './env.js';

export interface TestApi {
  url: string;
  deps: ApiDeps;
  router: ReturnType<typeof createApp>['router'];
  close(): Promise<void>;
}

export async function startTestApi(options: { env?: Record<string, string | undefined>; routes?: readonly RouteSpec[] } = {}): Promise<TestApi> {
  const config = testConfig('api', options.env);
  const log = createLogger({ name: 'api-test', level: config.LOG_LEVEL });
  const deps = createApiDeps(config, log);
  const { app, router } = createApp(deps, options.routes ?? apiRoutes);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deps,
    router,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.close();
    },
  };
}
