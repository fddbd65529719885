{{/* Names and labels. */}}
{{- define "pagewright.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "pagewright.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "pagewright.labels" -}}
{{ include "pagewright.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "pagewright.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "pagewright.secretName" -}}
{{ .Values.existingSecret | default (printf "%s-settings" (include "pagewright.fullname" .)) }}
{{- end -}}

{{/*
Secret settings the chart insists on when it creates the Secret: the secret settings that
core/config-table.ts marks as required by the API, the worker or the migrations
(test/deploy-parity.test.ts checks this list against it), and the browser service's token.
*/}}
{{- define "pagewright.requiredSecrets" -}}
{{- $names := list "DATABASE_URL" "REDIS_URL" "AUTH_SECRET" "API_KEY_PEPPER" "SCRAPE_SERVICE_TOKEN" "WEBHOOK_SIGNING_SECRET" -}}
{{- if .Values.browser.enabled }}{{ $names = append $names "BROWSER_ENGINE_TOKEN" }}{{ end -}}
{{- join " " $names -}}
{{- end -}}

{{/* The process: the package.json script the local stack and docker-compose.yml run too, as the image's CMD (compose's `command`), so the image's ENTRYPOINT runs it as under compose. */}}
{{- define "pagewright.npmScript" -}}
args: ["npm", "run", "--silent", {{ . | quote }}]
{{- end -}}

{{/* Pod-level settings every process shares. */}}
{{- define "pagewright.podSpec" -}}
automountServiceAccountToken: false
{{- with .Values.serviceAccountName }}
serviceAccountName: {{ . }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  # The image's `node` user.
  runAsNonRoot: true
  runAsUser: 1000
  runAsGroup: 1000
  fsGroup: 1000
  seccompProfile:
    type: RuntimeDefault
{{- end -}}

{{- define "pagewright.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: [ALL]
{{- end -}}

{{/*
HOME on the writable /tmp volume: the root file system is read-only, and what writes there (tsx's
cache, Chromium's profile and settings) goes to /tmp or HOME. (The image tells npm to write no logs.)
*/}}
{{- define "pagewright.baseEnv" -}}
- name: HOME
  value: /tmp
{{- end -}}

{{/* The ConfigMap and Secret of settings, for the API and the workers. */}}
{{- define "pagewright.envFrom" -}}
envFrom:
  - configMapRef:
      name: {{ include "pagewright.fullname" . }}-config
  - secretRef:
      name: {{ include "pagewright.secretName" . }}
{{- end -}}

{{/* Settings of one process (api.env, worker.env, browser.env). */}}
{{- define "pagewright.extraEnv" -}}
{{- range $name, $value := . }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* An include's lines at `indent`, or nothing at all when it renders empty (no blank line). */}}
{{- define "pagewright.indented" -}}
{{- with trim .text }}{{ nindent $.indent . }}{{ end -}}
{{- end -}}

{{/* Temporal over TLS: the Secret's files mounted, their paths as settings (API and worker). */}}
{{- define "pagewright.temporalTlsEnv" -}}
{{- $tls := .Values.temporal.tls -}}
{{- if and $tls.secretName $tls.clientCert }}
- name: TEMPORAL_TLS_CERT_PATH
  value: /etc/pagewright/temporal-tls/tls.crt
- name: TEMPORAL_TLS_KEY_PATH
  value: /etc/pagewright/temporal-tls/tls.key
{{- end }}
{{- if and $tls.secretName $tls.ca }}
- name: TEMPORAL_TLS_CA_PATH
  value: /etc/pagewright/temporal-tls/ca.crt
{{- end }}
{{- end -}}

{{- define "pagewright.volumeMounts" -}}
volumeMounts:
  - name: tmp
    mountPath: /tmp
{{- if .shm }}
  - name: shm
    mountPath: /dev/shm
{{- end }}
{{- if and .temporal .root.Values.temporal.tls.secretName }}
  - name: temporal-tls
    mountPath: /etc/pagewright/temporal-tls
    readOnly: true
{{- end }}
{{- end -}}

{{- define "pagewright.volumes" -}}
volumes:
  - name: tmp
    emptyDir: {}
{{- if .shm }}
  - name: shm
    emptyDir:
      medium: Memory
      sizeLimit: {{ .shm }}
{{- end }}
{{- if and .temporal .root.Values.temporal.tls.secretName }}
  - name: temporal-tls
    secret:
      secretName: {{ .root.Values.temporal.tls.secretName }}
{{- end }}
{{- end -}}

{{/* Where pods of the API, worker or browser service are (NetworkPolicy peers). */}}
{{- define "pagewright.peer" -}}
- podSelector:
    matchLabels:
      {{- include "pagewright.selectorLabels" . | nindent 6 }}
{{- end -}}

{{/* An egress rule to `port` (TCP) at `peers`, or at any address when there are none. */}}
{{- define "pagewright.egressTo" -}}
- ports:
    - port: {{ .port }}
      protocol: TCP
  {{- with .peers }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{- define "pagewright.dnsEgress" -}}
- ports:
    - port: 53
      protocol: UDP
    - port: 53
      protocol: TCP
  {{- with .Values.networkPolicy.dnsPeers }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* Every address but the private and special ranges in networkPolicy.internetExcept. */}}
{{- define "pagewright.internetEgress" -}}
- to:
    - ipBlock:
        cidr: 0.0.0.0/0
        except:
          {{- toYaml .Values.networkPolicy.internetExcept.ipv4 | nindent 10 }}
    - ipBlock:
        cidr: ::/0
        except:
          {{- toYaml .Values.networkPolicy.internetExcept.ipv6 | nindent 10 }}
{{- end -}}

{{- define "pagewright.temporalPort" -}}
{{- $parts := splitList ":" (required "temporal.address is required (TEMPORAL_ADDRESS, host:port)" .Values.temporal.address) -}}
{{- if ne (len $parts) 2 -}}{{- fail (printf "temporal.address must be host:port, got %q" .Values.temporal.address) -}}{{- end -}}
{{- last $parts -}}
{{- end -}}
