# syntax=docker/dockerfile:1
# alertbridge in a container (docs/deploy.md): one image for every role (ROLE=api|worker|all).
# Stage 1 compiles the TypeScript with the dev dependencies; stage 2 holds the production
# dependencies and the compiled dist/ only, runs as the unprivileged `node` user, and keeps the
# embedded database (and its key file) in the /app/data volume.
#
#   docker build -t alertbridge .
#   docker run -p 8080:8080 -v alertbridge-data:/app/data alertbridge      # embedded SQLite
#   docker compose up -d                                                    # PostgreSQL, see compose.yaml

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The vendor SDK and CLI are workspaces of the lock file: `npm ci` wants their folders.
COPY packages ./packages
# --ignore-scripts: the compiler needs no native module built (the run stage builds better-sqlite3).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json

FROM ${NODE_IMAGE} AS run
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
# Production dependencies only. better-sqlite3 fetches its prebuilt binary, or compiles one with the
# toolchain, which is removed again in the same layer.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && apt-get purge -y python3 make g++ \
 && apt-get autoremove -y \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/dist ./dist
# The documentation the service serves (the vendor guide at /docs/vendors).
COPY docs ./docs
# The embedded default keeps alertbridge.db and secret.key here (DATABASE_URL sqlite:./data/…).
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 8080
# Liveness: /healthz answers while the process serves HTTP (every role does). No curl in the slim
# image: Node's own fetch asks.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 8080}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# dist/ is built: `npm start` would try to rebuild from src/, which the image does not hold.
CMD ["node", "dist/main/server.js"]
