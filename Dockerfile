# The BFF as a container image: `podman build -t bank-checkout-bff .` (or `docker build`), run
# with `compose.yaml` beside PostgreSQL, or alone on the embedded SQLite file in /data.
#
# Two stages. The first builds the packages from this repository, packs them as npm publishes
# them, and writes the runtime's package.json and its lockfile (`npm install --package-lock-only`:
# every dependency's version and integrity fixed once, at build time); the second installs
# exactly that lockfile with `npm ci` (the BFF, its workspace packages from their tarballs, `pg`
# and the OpenTelemetry Node SDK), without the build tools, and runs `node dist/cli.js` itself
# (no npm wrapper: SIGTERM reaches the BFF, which stops cleanly) as the unprivileged user
# `node`. The health check asks `GET /ready`, which answers 503 while the store cannot answer.
# Every setting comes from the environment (packages/bff/README.md); going live, the BFF refuses
# to start without the production ones (docs/provider.md).
#
# The base is Node 24 LTS on Debian 12, pinned by the digest of its image index (the same bytes
# on every build; docs/running.md says how to refresh it). Another base: --build-arg NODE_IMAGE=….
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

FROM ${NODE_IMAGE} AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
# Behind a proxy that re-signs TLS (a company's, a CI machine's), npm needs its CA: mount it
# and name it, e.g. `--volume /etc/ssl/certs:/etc/ssl/certs:ro --build-arg
# NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt`. Left unset, nothing changes.
ARG NODE_EXTRA_CA_CERTS
WORKDIR /src
COPY . .
RUN npm install --no-audit --no-fund --loglevel=error \
 && node scripts/build-package.mjs bff elements \
 && mkdir /packed \
 && for p in contract provider bff elements; do npm pack --ignore-scripts --silent --pack-destination /packed ./packages/$p; done
# The runtime's package.json (the BFF's own, its workspace packages from their tarballs, pg and the
# OpenTelemetry Node SDK) and the lockfile the runtime stage installs with `npm ci`.
WORKDIR /runtime
RUN tar -xzf /packed/bank-checkout-bff-*.tgz --strip-components=1 package/package.json \
 && node /src/scripts/runtime-manifest.mjs /packed package.json \
 && npm install --package-lock-only --omit=dev --no-audit --no-fund --loglevel=error

FROM ${NODE_IMAGE} AS runtime
ARG NODE_EXTRA_CA_CERTS
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
# The tarballs where the lockfile names them. The BFF's package is the app; @bank-checkout/elements
# serves the isolated checkout's frame, pg a postgres:// DATABASE_URL, the OpenTelemetry Node
# SDK the OTEL_* variables (docs/running.md).
COPY --from=build /packed /packed
COPY --from=build /runtime/package.json /runtime/package-lock.json ./
RUN tar -xzf /packed/bank-checkout-bff-*.tgz --strip-components=1 --exclude=package/package.json \
 && npm ci --omit=dev --no-audit --no-fund --loglevel=error \
 && rm -rf /packed /root/.npm \
 && mkdir -p /data && chown node:node /data
USER node
ENV HOST=0.0.0.0 \
    PORT=4020 \
    DATABASE_URL=file:/data/bff.db
VOLUME ["/data"]
EXPOSE 4020
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4020) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/cli.js"]
