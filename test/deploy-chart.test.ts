/**
 * The Helm chart (deploy/helm/pagewright): `helm lint`, `helm template | kubeconform` against the
 * Kubernetes schemas of the oldest version the chart supports and the newest one known, and what
 * the rendered objects promise: the settings Secret, the migration hook, the NetworkPolicy, the
 * autoscaling examples, disruption budgets and locked-down pods. (Which entrypoints and settings
 * each process gets, compared with docker-compose.yml: test/deploy-parity.test.ts. The probes
 * against the real processes: test/deploy-probes.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { settings, type Setting } from '../core/config-table.js';
import { jobSearchAttributes } from '../scripts/infra/temporal.js';
import { registry } from '../telemetry/metrics.js';
import { chartDir, ciValues, containerOf, deployTool, fullname, helmTemplate, object, runTool, type K8sObject, type PolicyRule, type Rendered } from './helpers/deploy.js';

/** Validate manifests with kubeconform (strict: no field a kind does not declare) for one Kubernetes version. */
function kubeconform(manifests: string, kubernetesVersion: string) {
  const location = join(deployTool('k8sSchemas'), '{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}', '{{ .ResourceKind }}{{ .KindSuffix }}.json');
  const r = runTool('kubeconform', ['-strict', '-summary', '-output', 'json', '-kubernetes-version', kubernetesVersion, '-schema-location', location, '-'], manifests);
  const report = JSON.parse(r.stdout) as { resources: { kind: string; name: string; status: string; msg: string }[]; summary: { valid: number; invalid: number; errors: number; skipped: number } };
  return { status: r.status, ...report };
}

/** The oldest Kubernetes the chart declares (Chart.yaml kubeVersion `>=1.29.0-0`), and the newest the schemas know. */
const chart = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as { kubeVersion: string };
const oldest = /^>=(\d+\.\d+\.\d+)/.exec(chart.kubeVersion)![1]!;
function newest(): string {
  const versions = readdirSync(deployTool('k8sSchemas'))
    .map((d) => /^v(\d+)\.(\d+)\.(\d+)-local-strict$/.exec(d))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return versions.at(-1)!.join('.');
}

const name = (part: string) => `${fullname}-${part}`;
const componentOf = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/component'];

describe('helm lint and kubeconform', () => {
  for (const [variant, file] of Object.entries(ciValues)) {
    it(`lints cleanly with ${variant} values (--strict: warnings fail too)`, () => {
      const r = runTool('helm', ['lint', '--strict', chartDir, '-f', file]);
      expect(r.stderr + r.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(r.status).toBe(0);
    });

    it(`renders, with ${variant} values, only objects valid for the oldest supported and the newest Kubernetes`, () => {
      const rendered = helmTemplate([file]);
      for (const version of [oldest, newest()]) {
        const report = kubeconform(rendered.text, version);
        expect(report.resources.filter((r) => r.status !== 'statusValid'), `Kubernetes ${version}`).toEqual([]);
        expect(report.summary).toEqual({ valid: rendered.objects.length, invalid: 0, errors: 0, skipped: 0 });
        expect(report.status).toBe(0);
      }
    });
  }

  it('kubeconform with these schemas refuses a field a kind does not have (the check is not a no-op)', () => {
    const rendered = helmTemplate([ciValues.minimal]);
    const broken = rendered.text.replace(/kind: PodDisruptionBudget\n([\s\S]*?)spec:\n/, 'kind: PodDisruptionBudget\n$1spec:\n  minAvailible: 1\n');
    const report = kubeconform(broken, oldest);
    expect(report.status).toBe(1);
    expect(report.summary.invalid).toBe(1);
    expect(report.resources[0]!.msg).toContain("additional properties 'minAvailible' not allowed");
  });
});

describe('settings', () => {
  /** Secret settings some process refuses to start without (core/config-table.ts). */
  const requiredSecrets = Object.entries(settings as Record<string, Setting>)
    .filter(([, s]) => s.secret && s.requiredBy?.some((r) => r === 'api' || r === 'worker' || r === 'migrate'))
    .map(([n]) => n);
  const minimalSecrets = (parse(readFileSync(ciValues.minimal, 'utf8')) as { secrets: Record<string, string> }).secrets;

  it('puts the secrets in a Secret the API and workers read, and the rest in a ConfigMap', () => {
    const rendered = helmTemplate([ciValues.minimal]);
    const secret = object(rendered, 'Secret', name('settings'));
    expect(secret.stringData).toEqual(minimalSecrets);
    expect(Object.keys(secret.stringData!)).toEqual(expect.arrayContaining([...requiredSecrets, 'BROWSER_ENGINE_TOKEN']));
    const config = object(rendered, 'ConfigMap', name('config'));
    for (const key of Object.keys(config.data!)) expect((settings as Record<string, Setting>)[key]?.secret, key).toBeUndefined();
    for (const part of ['api', 'worker']) {
      expect(containerOf(object(rendered, 'Deployment', name(part))).envFrom).toEqual([{ configMapRef: { name: name('config') } }, { secretRef: { name: name('settings') } }]);
    }
  });

  for (const missing of [...requiredSecrets, 'BROWSER_ENGINE_TOKEN']) {
    it(`refuses to render without ${missing}, naming it`, () => {
      expect(() => helmTemplate([ciValues.minimal], { [`secrets.${missing}`]: '' })).toThrow(`secrets.${missing} is required`);
    });
  }

  /** Settings that are not secret and that the API or the workers require, with no default the chart could supply. */
  const requiredConfig = Object.entries(settings as Record<string, Setting>)
    .filter(([, s]) => !s.secret && s.requiredBy?.some((r) => r === 'api' || r === 'worker'))
    .map(([n]) => n);

  it('carries the required settings that are not secret, AUTH_URL and CORS_ORIGIN, in the ConfigMap', () => {
    expect(requiredConfig).toEqual(['AUTH_URL', 'CORS_ORIGIN']);
    const data = object(helmTemplate([ciValues.minimal]), 'ConfigMap', name('config')).data!;
    for (const n of requiredConfig) expect(data[n], n).toBe((parse(readFileSync(ciValues.minimal, 'utf8')) as { config: Record<string, string> }).config[n]);
  });

  for (const missing of requiredConfig) {
    it(`refuses to render without config.${missing}, naming it`, () => {
      expect(() => helmTemplate([ciValues.minimal], { [`config.${missing}`]: '' })).toThrow(`config.${missing} is required`);
    });
  }

  it('refuses to render without temporal.address, even with the NetworkPolicy off (an empty TEMPORAL_ADDRESS would fall back to 127.0.0.1:7233)', () => {
    expect(() => helmTemplate([ciValues.minimal], { 'temporal.address': '', 'networkPolicy.enabled': 'false' })).toThrow('temporal.address is required');
  });

  it('reads an existing Secret instead when one is named, and creates none', () => {
    const rendered = helmTemplate([ciValues.full]);
    expect(rendered.objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(containerOf(object(rendered, 'Deployment', name('api'))).envFrom).toContainEqual({ secretRef: { name: 'pagewright-settings' } });
    const browser = containerOf(object(rendered, 'Deployment', name('browser')));
    // The browser service renders untrusted pages: its token and proxies only, no database or Redis credentials.
    expect(browser.envFrom).toEqual([{ configMapRef: { name: name('config') } }]);
    expect(browser.env!.filter((e) => e.valueFrom?.secretKeyRef).map((e) => [e.name, e.valueFrom!.secretKeyRef!.optional ?? false])).toEqual([
      ['BROWSER_ENGINE_TOKEN', false],
      ['PROXY_URLS', true],
      ['STEALTH_PROXY_URLS', true],
      ['PROXY_URLS_DE', true],
    ]);
  });

  it('points the API and workers at Temporal Cloud over mutual TLS with the settings core/config.ts reads', () => {
    const rendered = helmTemplate([ciValues.full]);
    expect(object(rendered, 'ConfigMap', name('config')).data).toMatchObject({
      TEMPORAL_ADDRESS: 'pagewright.a1b2c.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'pagewright.a1b2c',
      TEMPORAL_TLS: 'true',
      TEMPORAL_TLS_SERVER_NAME: 'pagewright.a1b2c.tmprl.cloud',
    });
    for (const part of ['api', 'worker']) {
      const c = containerOf(object(rendered, 'Deployment', name(part)));
      const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));
      expect(env).toMatchObject({
        TEMPORAL_TLS_CERT_PATH: '/etc/pagewright/temporal-tls/tls.crt',
        TEMPORAL_TLS_KEY_PATH: '/etc/pagewright/temporal-tls/tls.key',
        TEMPORAL_TLS_CA_PATH: '/etc/pagewright/temporal-tls/ca.crt',
      });
      expect(c.volumeMounts).toContainEqual({ name: 'temporal-tls', mountPath: '/etc/pagewright/temporal-tls', readOnly: true });
    }
    for (const key of ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE', 'TEMPORAL_TLS', 'TEMPORAL_TLS_SERVER_NAME', 'TEMPORAL_TLS_CERT_PATH', 'TEMPORAL_TLS_KEY_PATH', 'TEMPORAL_TLS_CA_PATH', 'TEMPORAL_UI_URL']) {
      expect(settings, key).toHaveProperty(key);
    }
  });
});

describe('the migration Job', () => {
  it('runs before every install and upgrade as a hook, with DATABASE_URL from a hook Secret made before it', () => {
    const rendered = helmTemplate([ciValues.minimal]);
    const job = object(rendered, 'Job', name('migrate'));
    const secret = object(rendered, 'Secret', name('migrate'));
    expect(job.metadata.annotations).toEqual({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-weight': '0',
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
    });
    expect(secret.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(Number(secret.metadata.annotations!['helm.sh/hook-weight'])).toBeLessThan(0);
    expect(secret.stringData).toEqual({ DATABASE_URL: (parse(readFileSync(ciValues.minimal, 'utf8')) as { secrets: { DATABASE_URL: string } }).secrets.DATABASE_URL });
    expect(containerOf(job).env).toContainEqual({ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: name('migrate'), key: 'DATABASE_URL' } } });
  });

  it('reads DATABASE_URL from the existing Secret when one is named', () => {
    const rendered = helmTemplate([ciValues.full]);
    expect(containerOf(object(rendered, 'Job', name('migrate'))).env).toContainEqual({ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'pagewright-settings', key: 'DATABASE_URL' } } });
  });
});

describe('NetworkPolicy', () => {
  const rendered = (file: string): Rendered => helmTemplate([file]);
  const policy = (r: Rendered, part: string) => object(r, 'NetworkPolicy', name(part)).spec!;
  const internet = (rule: PolicyRule) => rule.to?.some((p) => p.ipBlock?.cidr === '0.0.0.0/0' || p.ipBlock?.cidr === '::/0') ?? false;
  /** Egress rules as `port/protocol -> peers` (peers `*` when any address). */
  const egress = (rules: PolicyRule[]) => rules.flatMap((r) => (r.ports ?? [{ port: 'any' }]).map((p) => `${p.port}/${'protocol' in p ? p.protocol : ''} -> ${r.to ? r.to.map((t) => t.podSelector?.matchLabels?.['app.kubernetes.io/component'] ?? (t.ipBlock ? `${t.ipBlock.cidr} except ${t.ipBlock.except?.length ?? 0}` : 'selector')).join(',') : '*'}`));

  it('lets the API reach only DNS, PostgreSQL, Redis, Temporal and the workers\' scrape endpoints', () => {
    expect(egress(policy(rendered(ciValues.minimal), 'api').egress!)).toEqual(['53/UDP -> *', '53/TCP -> *', '5432/TCP -> *', '6379/TCP -> *', '7233/TCP -> *', '3003/TCP -> worker']);
  });

  it('lets only the workers and the browser service reach the internet, never a private or metadata address', () => {
    const r = rendered(ciValues.minimal);
    const policies = r.objects.filter((o) => o.kind === 'NetworkPolicy');
    expect(policies.filter((p) => p.spec!.egress!.some(internet)).map(componentOf).sort()).toEqual(['browser', 'worker']);
    for (const part of ['worker', 'browser']) {
      const rule = policy(r, part).egress!.find(internet)!;
      expect(rule.ports).toBeUndefined();
      expect(rule.to![0]!.ipBlock!.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10', '127.0.0.0/8']));
      expect(rule.to![1]!.ipBlock!.except).toEqual(expect.arrayContaining(['fc00::/7', 'fe80::/10']));
    }
    expect(egress(policy(r, 'worker').egress!)).toEqual(['53/UDP -> *', '53/TCP -> *', '5432/TCP -> *', '6379/TCP -> *', '7233/TCP -> *', '3002/TCP -> browser', 'any/ -> 0.0.0.0/0 except 7,::/0 except 3']);
    expect(egress(policy(r, 'browser').egress!)).toEqual(['53/UDP -> *', '53/TCP -> *', 'any/ -> 0.0.0.0/0 except 7,::/0 except 3']);
    expect(egress(policy(r, 'migrate').egress!)).toEqual(['53/UDP -> *', '53/TCP -> *', '5432/TCP -> *']);
  });

  it('admits to the workers only the API (and metricsFrom), to the browser service only the workers', () => {
    const r = rendered(ciValues.full);
    expect(policy(r, 'worker').ingress).toEqual([
      {
        ports: [{ port: 3003, protocol: 'TCP' }],
        from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'pagewright', 'app.kubernetes.io/instance': 'pw', 'app.kubernetes.io/component': 'api' } } }, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
      },
    ]);
    expect(policy(r, 'browser').ingress).toEqual([{ ports: [{ port: 3002, protocol: 'TCP' }], from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'pagewright', 'app.kubernetes.io/instance': 'pw', 'app.kubernetes.io/component': 'worker' } } }] }]);
    expect(policy(r, 'migrate').ingress).toBeUndefined();
    // Narrowed peers replace "any address" on the infrastructure ports.
    expect(egress(policy(r, 'api').egress!)).toEqual(['53/UDP -> selector', '53/TCP -> selector', '25060/TCP -> 10.40.0.0/24 except 0', '25061/TCP -> selector', '7233/TCP -> 0.0.0.0/0 except 0', '3003/TCP -> worker', '443/TCP -> 0.0.0.0/0 except 0']);
  });

  it('selects every pod the chart runs, for both directions', () => {
    for (const file of Object.values(ciValues)) {
      const r = rendered(file);
      const workloads = r.objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
      const policies = r.objects.filter((o) => o.kind === 'NetworkPolicy');
      for (const w of workloads) {
        const labels = w.spec!.template!.metadata!.labels!;
        const selecting = policies.filter((p) => Object.entries(p.spec!.podSelector!.matchLabels!).every(([k, v]) => labels[k] === v));
        expect(selecting.map((p) => p.spec!.policyTypes), `${w.kind} ${w.metadata.name}`).toEqual([['Ingress', 'Egress']]);
      }
    }
  });
});

describe('traces', () => {
  const bundleOf = (r: Rendered) => containerOf(object(r, 'Deployment', name('worker'))).env!.find((e) => e.name === 'WORKFLOW_BUNDLE_PATH')?.value;
  it("workers load the image's workflow bundle, and the traced one once an OTLP endpoint is configured", () => {
    expect(bundleOf(helmTemplate([ciValues.minimal]))).toBe('/app/dist/workflow-bundle.js');
    expect(bundleOf(helmTemplate([ciValues.minimal], { 'config.OTEL_EXPORTER_OTLP_ENDPOINT': 'http://collector:4318' }))).toBe('/app/dist/workflow-bundle-traced.js');
  });
});

describe('autoscaling examples', () => {
  it('are off by default: no HorizontalPodAutoscaler, fixed replicas', () => {
    const r = helmTemplate([ciValues.minimal]);
    expect(r.objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
    expect(object(r, 'Deployment', name('worker')).spec!.replicas).toBe(2);
  });

  it('scale workers on CPU and on the queued URLs of the frontier (an external metric), leaving replicas to the HPA', () => {
    const r = helmTemplate([ciValues.full]);
    const hpa = object(r, 'HorizontalPodAutoscaler', name('worker')).spec!;
    expect(hpa.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: name('worker') });
    expect(hpa.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
      { type: 'External', external: { metric: { name: 'pagewright_frontier_urls', selector: { matchLabels: { state: 'queued' } } }, target: { type: 'AverageValue', averageValue: '500' } } },
    ]);
    // The gauge the API really serves (telemetry/metrics.ts), with that label.
    expect(registry.getSingleMetric('pagewright_frontier_urls')).toMatchObject({ labelNames: ['state'] });
    expect(object(r, 'Deployment', name('worker')).spec!.replicas).toBeUndefined();
    expect(object(r, 'HorizontalPodAutoscaler', name('api')).spec!.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
  });

  it('refuses autoscaling with no metric on', () => {
    expect(() => helmTemplate([ciValues.minimal], { 'worker.autoscaling.enabled': 'true', 'worker.autoscaling.cpu.enabled': 'false' })).toThrow('worker.autoscaling.enabled needs');
  });
});

describe('pods', () => {
  it('have a disruption budget each, selecting exactly their Deployment\'s pods', () => {
    const r = helmTemplate([ciValues.minimal]);
    const budgets = r.objects.filter((o) => o.kind === 'PodDisruptionBudget');
    expect(budgets.map(componentOf).sort()).toEqual(['api', 'browser', 'worker']);
    for (const pdb of budgets) {
      const deployment = object(r, 'Deployment', pdb.metadata.name);
      expect(pdb.spec!.selector).toEqual(deployment.spec!.selector);
      expect(pdb.spec!.maxUnavailable).toBe(1);
    }
  });

  it('run as the image\'s non-root user, read-only, without privileges or a service account token', () => {
    const r = helmTemplate([ciValues.minimal]);
    const workloads = r.objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
    expect(workloads.map(componentOf).sort()).toEqual(['api', 'browser', 'migrate', 'worker']);
    for (const w of workloads) {
      const pod = w.spec!.template!.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(pod.automountServiceAccountToken).toBe(false);
      const c = containerOf(w);
      expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(c.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
    }
  });
});

describe('the chart\'s README', () => {
  it('names every search attribute the workflows set, with its type, for the Temporal namespace', () => {
    const readme = readFileSync(join(chartDir, 'README.md'), 'utf8');
    for (const [attribute, type] of Object.entries(jobSearchAttributes)) expect(readme).toContain(`\`${attribute}\` ${type}`);
  });
});
