# One image for the api, the worker and the browser service (docker-compose.yml picks the npm script).
# TypeScript runs through tsx, as under ./scripts/stack, so paths the code resolves relative to
# its own files (migrations, the schema engine's wasm) stay valid.
FROM node:20-bookworm-slim

# Debian's Chromium: Playwright downloads no browser here. Fonts so pages and screenshots render text.
# Versions come from the pinned base image's Debian release; pinning each would block security updates.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-color-emoji ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
# Dev dependencies too: `prisma generate` needs the CLI; they are pruned after generation.
RUN npm ci --no-audit --no-fund

# Explicit list instead of `COPY . .`, so local state (.stack/, node_modules/, .env*) never enters the image.
COPY tsconfig.json prisma.config.ts ./
COPY core ./core
COPY api ./api
COPY workflows ./workflows
COPY activities ./activities
COPY worker ./worker
COPY egress ./egress
COPY jobs ./jobs
COPY search ./search
COPY browser ./browser
COPY browser-service ./browser-service
COPY prisma ./prisma
COPY telemetry ./telemetry
COPY scripts ./scripts
COPY dashboard ./dashboard
# The workflow bundle is built here, from the image's code: workers load it (WORKFLOW_BUNDLE_PATH)
# instead of bundling at start; workers with traces on (OTEL_EXPORTER_OTLP_ENDPOINT) load the
# -traced one (README "Traces"). The dashboard's front end is built too: the API serves dashboard/dist.
RUN rm -rf prisma/generated dashboard/dist \
 && node_modules/.bin/tsx scripts/prisma-generate.ts \
 && node_modules/.bin/tsx scripts/bundle-workflows.ts dist/workflow-bundle.js \
 && node_modules/.bin/tsx scripts/bundle-workflows.ts --tracing dist/workflow-bundle-traced.js \
 && node_modules/.bin/tsx scripts/build-dashboard.ts \
 && npm prune --omit=dev --no-audit --no-fund

# npm only runs the start scripts here: no update check (the API may not reach the internet) and
# no log files (the Helm chart's root file system is read-only).
ENV NODE_ENV=production \
    CHROMIUM_PATH=/usr/lib/chromium/chromium \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_LOGS_MAX=0
# The base image's `node` user, numerically so runAsNonRoot-style checks can verify it.
USER 1000:1000
# The process entries are package.json scripts (start:api, start:worker, start:browser-service).
CMD ["npm", "run", "--silent", "start:api"]
