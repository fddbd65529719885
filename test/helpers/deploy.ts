/**
 * The deployment artefacts as data, for the deployment tests: the Helm chart (deploy/helm/pagewright)
 * rendered by the real helm, docker-compose.yml parsed, and the tools that check them (helm,
 * kubeconform, the Kubernetes and compose-spec schemas), which `./scripts/stack setup` installs
 * into .stack/tools. A missing tool fails the test naming it and how to get it.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject, type ProvidedContext } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { repoRoot } from '../../scripts/stack-config.js';

export const chartDir = join(repoRoot, 'deploy', 'helm', 'pagewright');
export const composePath = join(repoRoot, 'docker-compose.yml');
/** Values files the tests render the chart with: the least an install needs, and every option on. */
export const ciValues = { minimal: join(chartDir, 'ci', 'minimal-values.yaml'), full: join(chartDir, 'ci', 'full-values.yaml') } as const;
/** The release name the tests render with; objects are named `<release>-pagewright-<part>`. */
export const release = 'pw';
export const fullname = `${release}-pagewright`;

type Tool = keyof ProvidedContext['deployTools'];
const toolInfo: Record<Tool, { setting: string; what: string; executable: boolean }> = {
  helm: { setting: 'STACK_HELM', what: 'helm (built from the Go module proxy)', executable: true },
  kubeconform: { setting: 'STACK_KUBECONFORM', what: 'kubeconform (built from the Go module proxy)', executable: true },
  k8sSchemas: { setting: 'STACK_K8S_SCHEMAS', what: 'the Kubernetes JSON schemas (from the kubernetes-validate wheel)', executable: false },
  composeSchema: { setting: 'STACK_COMPOSE_SCHEMA', what: 'the compose-spec JSON schema (from the compose-go module)', executable: false },
};

/** The tool's path; throws naming it, its setting and the command that installs it when it is absent. */
export function deployTool(tool: Tool): string {
  const path = inject('deployTools')[tool];
  const { setting, what, executable } = toolInfo[tool];
  try {
    accessSync(path, executable ? constants.X_OK : constants.R_OK);
  } catch {
    throw new Error(`${what} is missing: nothing at ${path} (${setting}). Run ./scripts/stack setup, which installs it into .stack/tools, or set ${setting}.`);
  }
  return path;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runTool(tool: 'helm' | 'kubeconform', args: string[], input?: string): RunResult {
  const r = spawnSync(deployTool(tool), args, { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// The parts of Kubernetes objects the tests read.
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; fieldRef?: { fieldPath: string } };
}
export interface Probe {
  httpGet?: { path: string; port: string | number };
}
export interface Container {
  name: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: { name: string; mountPath: string }[];
}
export interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  automountServiceAccountToken?: boolean;
}
export interface NetworkPolicyPeer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: { cidr: string; except?: string[] };
}
export interface PolicyRule {
  ports?: { port: number; protocol?: string }[];
  to?: NetworkPolicyPeer[];
  from?: NetworkPolicyPeer[];
}
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> };
    template?: { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
    podSelector?: { matchLabels?: Record<string, string> };
    policyTypes?: string[];
    ingress?: PolicyRule[];
    egress?: PolicyRule[];
    scaleTargetRef?: { kind: string; name: string };
    metrics?: { type: string; resource?: { name: string }; external?: { metric: { name: string; selector?: { matchLabels?: Record<string, string> } }; target: Record<string, unknown> } }[];
    maxUnavailable?: number | string;
  };
}

export interface Rendered {
  text: string;
  objects: K8sObject[];
}

/** `helm template` of the chart with these values files and `--set` pairs; throws with helm's words when it fails. */
export function helmTemplate(valuesFiles: string[], set: Record<string, string> = {}): Rendered {
  const r = runTool('helm', ['template', release, chartDir, ...valuesFiles.flatMap((f) => ['-f', f]), ...Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`])]);
  if (r.status !== 0) throw new Error(`helm template failed (${r.status}): ${r.stderr}`);
  const objects = parseAllDocuments(r.stdout)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
  return { text: r.stdout, objects };
}

/** The one object of this kind and name; throws listing what there is otherwise. */
export function object(rendered: Rendered, kind: string, name: string): K8sObject {
  const found = rendered.objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered chart; it has: ${rendered.objects.map((o) => `${o.kind} ${o.metadata.name}`).join(', ')}`);
  return found;
}

/** The single container of a Deployment or Job. */
export function containerOf(workload: K8sObject): Container {
  const containers = workload.spec?.template?.spec.containers ?? [];
  if (containers.length !== 1) throw new Error(`${workload.kind} ${workload.metadata.name} has ${containers.length} containers, expected 1`);
  return containers[0]!;
}

/**
 * Names of the environment variables a container gets: its `env`, and the keys of the ConfigMaps
 * and Secrets its `envFrom` names, as rendered (a Secret the chart does not render, i.e.
 * existingSecret, contributes nothing).
 */
export function envNames(rendered: Rendered, container: Container): Set<string> {
  const names = new Set((container.env ?? []).map((e) => e.name));
  for (const from of container.envFrom ?? []) {
    const ref = from.configMapRef ? { kind: 'ConfigMap', name: from.configMapRef.name } : { kind: 'Secret', name: from.secretRef!.name };
    const source = rendered.objects.find((o) => o.kind === ref.kind && o.metadata.name === ref.name);
    for (const key of Object.keys(source?.data ?? source?.stringData ?? {})) names.add(key);
  }
  return names;
}

export interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  image?: string;
  build?: unknown;
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** docker-compose.yml as compose reads it: YAML merge keys (`<<: *app-env`) resolved. */
export function readCompose(text = readFileSync(composePath, 'utf8')): ComposeFile {
  return parse(text, { merge: true }) as ComposeFile;
}

export function readJson(path: string): unknown {
  if (!existsSync(path)) throw new Error(`${path} is missing`);
  return JSON.parse(readFileSync(path, 'utf8'));
}
