/** Start the real Koa app on an ephemeral port against the test PostgreSQL, Redis and Temporal. */
import { createApp } from '../../api/app.js';
import { createApiDeps, type ApiDeps } from '../../api/deps.js';
import type { RouteSpec } from '../../api/route.js';
import { apiRoutes } from '../../api/routes/index.js';
import { createLogger } from '../../core/log.js';
import { freePort } from '../../scripts/infra/ready.js';
import { testConfig } from './env.js';

export interface TestApi {
  url: string;
  deps: ApiDeps;
  router: ReturnType<typeof createApp>['router'];
  close(): Promise<void>;
}

/** AUTH_URL is the URL the app listens on, so absolute links it hands out (`next` for SDKs) lead back to it, unless a test sets its own. */
export async function startTestApi(options: { env?: Record<string, string | undefined>; routes?: readonly RouteSpec[]; port?: number } = {}): Promise<TestApi> {
  const port = options.port ?? (await freePort());
  const config = testConfig('api', { AUTH_URL: `http://127.0.0.1:${port}`, ...options.env });
  const log = createLogger({ name: 'api-test', level: config.LOG_LEVEL });
  const deps = createApiDeps(config, log);
  const { app, router } = createApp(deps, options.routes ?? apiRoutes);
  const server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
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
