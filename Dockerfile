# syntax=docker/dockerfile:1
# The service on the official Node image of the major the project pins (package.json: node ^24).
# The image's Node runs the TypeScript sources directly (type stripping): there is no build step
# but the dashboard's, which needs the dev dependencies and so happens in a stage of its own.

FROM node:24-slim AS web
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the `node` package's Node download is not needed here (the image has Node 24).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts/build-web.mjs scripts/
COPY web web
# The one server module the dashboard shares: its list of client routes.
COPY src/web/client-routes.ts src/web/
# Not through npm: npm would put node_modules/.bin (the unset-up `node` package) first on PATH.
RUN node scripts/build-web.mjs

FROM node:24-slim
ENV NODE_ENV=production
# Rendering (`options.render` auto|always) needs Debian's Chromium: build with
# `--build-arg WITH_CHROMIUM=true` (about 300 MB more). Without it, a job asking for rendering is
# refused at its start with a 422; every other job runs as before.
ARG WITH_CHROMIUM=false
RUN if [ "$WITH_CHROMIUM" = "true" ]; then \
      apt-get update && apt-get install -y --no-install-recommends chromium fonts-liberation && rm -rf /var/lib/apt/lists/*; \
    fi
ENV CHROMIUM_PATH=/usr/bin/chromium
# glibc returns freed blocks of 128 kB and more to the system at once (docs/decisions.md, issue 12, ninth part).
ENV MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches patches
# No production dependency has an install script; dev dependencies (the `node` package among them) stay out.
# Our own fixes to dependencies (patches/, docs/decisions.md) are applied as `npm install`'s postinstall would.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npx patch-package --error-on-fail && npm cache clean --force
COPY migrations migrations
COPY src src
COPY bin/service.mjs bin/
COPY --from=web /app/web/dist web/dist
# DATA_DIR, for a PGlite database when DATABASE_URL is not set; owned by the unprivileged user.
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/v1/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself, not npm: SIGTERM reaches it and it stops cleanly (src/main.ts). --liftoff-only:
# the embedded database's WebAssembly stays on V8's baseline compiler (docs/decisions.md, "Memory");
# the heap flags and bin/service.mjs's compile cache: docs/decisions.md, issue 12.
CMD ["node", "--liftoff-only", "--max-semi-space-size=8", "--heap-growing-percent=30", "bin/service.mjs", "serve"]
