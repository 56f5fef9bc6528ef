# The BFF as a container image: `podman build -t bank-checkout-bff .` (or `docker build`), run
# with `compose.yaml` beside PostgreSQL, or alone on the embedded SQLite file in /data.
#
# Two stages. The first builds the packages from this repository and packs them as npm
# publishes them; the second installs those packages (with `pg`) as a merchant's server would,
# without the build tools, and runs `node dist/cli.js` itself (no npm wrapper: SIGTERM reaches
# the BFF, which stops cleanly) as the unprivileged user `node`. The health check asks
# `GET /ready`, which answers 503 while the store cannot answer. Every setting comes from the
# environment (packages/bff/README.md); going live, the BFF refuses to start without the
# production ones (docs/provider.md).
ARG NODE_IMAGE=node:20-bookworm-slim

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

FROM ${NODE_IMAGE} AS runtime
ARG NODE_EXTRA_CA_CERTS
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=build /packed /tmp/packed
# The BFF's package is the app; its workspace dependencies from their tarballs, the rest (and pg,
# for a postgres:// DATABASE_URL) from the registry. @bank-checkout/elements serves the
# isolated checkout's frame.
RUN tar -xzf /tmp/packed/bank-checkout-bff-*.tgz --strip-components=1 \
 && npm pkg delete devDependencies \
 && npm install --omit=dev --no-audit --no-fund --loglevel=error \
      /tmp/packed/bank-checkout-contract-*.tgz /tmp/packed/bank-checkout-provider-*.tgz /tmp/packed/bank-checkout-elements-*.tgz pg@^8.11.0 \
 && rm -rf /tmp/packed /root/.npm \
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
