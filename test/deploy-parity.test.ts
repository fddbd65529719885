/**
 * The Helm chart and docker-compose.yml run the processes the same way the local stack does: the
 * same package.json scripts (scripts/infra/project-files.ts processScripts), the same migration
 * command, the settings each process requires (derived from core/config-table.ts, not retyped),
 * the same worker tuning, health checks on the same routes, and no database credentials for the
 * browser service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settings, type Role, type Setting } from '../core/config-table.js';
import { processScripts, projectFiles } from '../scripts/infra/project-files.js';
import { WORKER_ENV } from '../scripts/infra/worker-launch.js';
import { repoRoot } from '../scripts/stack-config.js';
import { ciValues, containerOf, envNames, fullname, helmTemplate, object, readCompose } from './helpers/deploy.js';

type Process = keyof typeof processScripts;
/** Each process: its compose service, the chart's name for it, its role in core/config-table.ts, and the setting holding its port. */
const processes: Record<Process, { compose: string; chart: string; role: Role; portSetting: string }> = {
  api: { compose: 'api', chart: 'api', role: 'api', portSetting: 'API_PORT' },
  worker: { compose: 'worker', chart: 'worker', role: 'worker', portSetting: 'WORKER_SCRAPE_PORT' },
  browser: { compose: 'browser-service', chart: 'browser', role: 'browser', portSetting: 'PORT' },
};
const table = settings as Record<string, Setting>;
const requiredBy = (role: Role) => Object.keys(table).filter((n) => table[n]!.requiredBy?.includes(role));
/** Settings two processes must share without a role requiring them: the browser service's bearer token, on both sides. */
const shared: Partial<Record<Process, string[]>> = { worker: ['BROWSER_ENGINE_TOKEN', 'BROWSER_ENGINE_URL'], browser: ['BROWSER_ENGINE_TOKEN'] };
/** Environment variables that are not settings, and why they are there. */
const notSettings: Record<string, string> = {
  HOME: 'chart: HOME on the writable /tmp volume, the root file system being read-only',
  POD_IP: 'chart: the pod IP, from which WORKER_SCRAPE_URL is built',
  ...Object.fromEntries(Object.keys(WORKER_ENV).map((k) => [k, 'glibc malloc tuning of the worker (scripts/infra/worker-launch.ts)'])),
};

const compose = readCompose();
const chart = () => helmTemplate([ciValues.minimal]);
const deployment = (r: ReturnType<typeof chart>, p: Process) => object(r, 'Deployment', `${fullname}-${processes[p].chart}`);
const composeEnv = (p: Process) => compose.services[processes[p].compose]!.environment ?? {};
const chartEnv = (r: ReturnType<typeof chart>, p: Process) => Object.fromEntries((containerOf(deployment(r, p)).env ?? []).map((e) => [e.name, e.value]));

describe('the chart and docker-compose.yml against the local stack', () => {
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

  for (const p of Object.keys(processes) as Process[]) {
    it(`start the ${p} with npm run ${processScripts[p]}, the script ./scripts/stack up runs`, () => {
      const command = ['npm', 'run', '--silent', processScripts[p]];
      // `exec`: npm's `sh -c` gives way to node, so the SIGTERM npm forwards reaches it (test/deploy-probes.test.ts).
      expect(scripts[processScripts[p]]).toMatch(/^exec node /);
      expect(compose.services[processes[p].compose]!.command).toEqual(command);
      const container = containerOf(deployment(chart(), p));
      // `args` replaces the image's CMD as compose's `command` does; the image's ENTRYPOINT runs it in both.
      expect(container.args).toEqual(command);
      expect(container.command).toBeUndefined();
    });
  }

  it('run the same migration command, scripts/migrate.ts deploy', () => {
    const command = compose.services.migrate!.command!;
    expect(command).toEqual(['node', '--import', 'tsx', projectFiles.migrate, 'deploy']);
    expect(containerOf(object(chart(), 'Job', `${fullname}-migrate`)).args).toEqual(command);
  });

  for (const p of Object.keys(processes) as Process[]) {
    const needed = [...requiredBy(processes[p].role), ...(shared[p] ?? [])];
    it(`give the ${p} every setting it requires (${needed.join(', ') || 'none besides its port'}), and only real settings`, () => {
      const r = chart();
      const fromChart = envNames(r, containerOf(deployment(r, p)));
      const fromCompose = new Set(Object.keys(composeEnv(p)));
      for (const name of [...needed, processes[p].portSetting]) {
        expect(fromChart.has(name), `chart, ${p}: ${name}`).toBe(true);
        expect(fromCompose.has(name), `compose, ${p}: ${name}`).toBe(true);
      }
      for (const name of [...fromChart, ...fromCompose]) expect(name in table || name in notSettings, `${name} given to the ${p} is no setting of core/config-table.ts`).toBe(true);
    });
  }

  it('give the migrations DATABASE_URL, all they require', () => {
    expect(requiredBy('migrate')).toEqual(['DATABASE_URL']);
    expect(Object.keys(compose.services.migrate!.environment!)).toContain('DATABASE_URL');
    expect(containerOf(object(chart(), 'Job', `${fullname}-migrate`)).env!.map((e) => e.name)).toContain('DATABASE_URL');
  });

  it('give the browser service, which renders untrusted pages, no secret but its token and proxies', () => {
    const allowed = ['BROWSER_ENGINE_TOKEN', 'PROXY_URLS', 'STEALTH_PROXY_URLS'];
    const r = chart();
    for (const names of [[...envNames(r, containerOf(deployment(r, 'browser')))], Object.keys(composeEnv('browser'))]) {
      expect(names.filter((n) => table[n]?.secret && !allowed.includes(n))).toEqual([]);
    }
  });

  it('tune the worker\'s memory the way the local stack does, and load the workflow bundle the image builds', () => {
    const r = chart();
    expect(chartEnv(r, 'worker')).toMatchObject(WORKER_ENV);
    expect(composeEnv('worker')).toMatchObject(WORKER_ENV);
    const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
    const workdir = /^WORKDIR (\S+)$/m.exec(dockerfile)![1]!;
    const bundle = /scripts\/bundle-workflows\.ts (\S+)/.exec(dockerfile)![1]!;
    expect(chartEnv(r, 'worker').WORKFLOW_BUNDLE_PATH).toBe(`${workdir}/${bundle}`);
    expect(composeEnv('worker').WORKFLOW_BUNDLE_PATH).toBe(`${workdir}/${bundle}`);
  });

  it('point the workers at the browser service\'s port', () => {
    const r = chart();
    const browserPort = chartEnv(r, 'browser').PORT;
    const service = object(r, 'Service', `${fullname}-browser`);
    expect(chartEnv(r, 'worker').BROWSER_ENGINE_URL).toBe(`http://${service.metadata.name}:${browserPort}`);
    expect(composeEnv('worker').BROWSER_ENGINE_URL).toBe(`http://${processes.browser.compose}:${composeEnv('browser').PORT}`);
  });

  for (const p of Object.keys(processes) as Process[]) {
    it(`check the ${p}'s health on the same route, on the port it listens on`, () => {
      const r = chart();
      const container = containerOf(deployment(r, p));
      const probe = container.livenessProbe!.httpGet!;
      const port = container.ports!.find((x) => x.name === probe.port)!.containerPort;
      expect(String(port)).toBe(chartEnv(r, p)[processes[p].portSetting]);
      const test = compose.services[processes[p].compose]!.healthcheck!.test.join(' ');
      const [, composePort, composePath] = /fetch\('http:\/\/127\.0\.0\.1:(\d+)(\/[a-z]+)'\)/.exec(test)!;
      expect(composePath).toBe(probe.path);
      expect(composePort).toBe(composeEnv(p)[processes[p].portSetting]);
    });
  }
});
