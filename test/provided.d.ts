// Values test/global-setup.ts hands to every test file through `inject(name)`.
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** Migrated database of the throwaway PostgreSQL server (user postgres, trust auth on loopback). */
    databaseUrl: string;
    /** Same server, `postgres` maintenance database: for tests that create databases of their own. */
    postgresAdminUrl: string;
    /** Shared throwaway Redis; tests that stop or restart Redis start their own (see redisServerPath). */
    redisUrl: string;
    /** `host:port` of the Temporal dev server (search attributes of jobSearchAttributes registered). */
    temporalAddress: string;
    temporalNamespace: string;
    /** redis-server executable, for `startRedis()` from scripts/infra/redis.ts. */
    redisServerPath: string;
    /** temporal CLI executable. */
    temporalCliPath: string;
    /** Chromium binary for Playwright's `executablePath`. */
    chromiumPath: string;
    /** Python with the official firecrawl-py SDK (STACK_SDK_PYTHON; may be missing: test/helpers/sdk-python.ts checks it). */
    sdkPythonPath: string;
    /** The deployment checks' tools (STACK_HELM, STACK_KUBECONFORM, STACK_K8S_SCHEMAS, STACK_COMPOSE_SCHEMA; may be missing: test/helpers/deploy.ts checks them). */
    deployTools: { helm: string; kubeconform: string; k8sSchemas: string; composeSchema: string };
  }
}
