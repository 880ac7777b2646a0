# syntax=docker/dockerfile:1
# The portal as a container image, for schools and hosts who self-host (docs/operations.md,
# docs/decisions/048). Three stages: the build (every dependency, the web app and the compiled
# server), the server's runtime dependencies alone, and the image: Node 24 slim, the compiled server
# (apps/server/dist), the web build, those dependencies; no TypeScript, no tsx, no dev tools. It runs
# as the image's `node` user, keeps its data in the /data volume and reports readiness to Docker.
#
#   docker build -t school-portal .
#   docker run -e PUBLIC_URL=https://portal.school.ng -p 3000:3000 -v portal-data:/data school-portal
#
# Several instances on PostgreSQL and Redis behind nginx: compose.yaml.

# Node 24 LTS, the version CI runs the whole suite on (.ci/run, NODE24_VERSION; a test keeps them equal).
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /portal
# The manifests first: the install is cached until a dependency changes. better-sqlite3 and argon2
# bring their binaries inside their registry packages: nothing compiles, nothing else downloads.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/domain/package.json packages/domain/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build --silent

FROM node:${NODE_VERSION}-bookworm-slim AS runtime-deps
WORKDIR /portal
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/domain/package.json packages/domain/
COPY e2e/package.json e2e/
# Only what the server imports at run time (apps/server's dependencies): no build tools, no pino-pretty
# (JSON logs, for the host's log collector), no web or test packages.
RUN npm ci --omit=dev --workspace @portal/server --no-audit --no-fund && npm cache clean --force

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /portal
COPY --from=runtime-deps /portal ./
# The server finds the web build at ../../web/dist from its own folder (config.ts), as in the project.
COPY --from=build /portal/apps/server/dist apps/server/dist
COPY --from=build /portal/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Ready: the database answers and is migrated; 503 while draining (SIGTERM, SHUTDOWN_DELAY_MS).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself as PID 1 (no npm in between): SIGTERM reaches the server, which drains and exits 0.
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
