#!/usr/bin/env bash
# Builds the BFF's image (Dockerfile) and checks it as an operator would run it: it refuses to
# listen beyond loopback with the development secret; with a secret of its own it starts as the
# user `node`, its health check passes on /ready, it takes a checkout, the operator's commands
# run inside it, its SQLite file survives a restart in its volume, and SIGTERM stops it with
# status 0.
#
# Usage: bash scripts/container-check.sh        (CONTAINER=docker to use Docker instead of podman)
# Extra flags for the engine: CONTAINER_FLAGS (every command, e.g. "--runtime runc") and
# RUN_FLAGS (build and run, e.g. "--ulimit nofile=1024:1024"); BUILD_FLAGS for the build alone
# (e.g. a proxy's CA: "--volume /etc/ssl/certs:/etc/ssl/certs:ro --build-arg
# NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt"). PORT: the host port (default 4020).
set -euo pipefail
cd "$(dirname "$0")/.."
engine="${CONTAINER:-podman}"
c() { "$engine" ${CONTAINER_FLAGS:-} "$@"; }
port="${PORT:-4020}"
image="localhost/bank-checkout-bff:check"
name="bank-checkout-bff-check-$$"
volume="$name-data"
secret="whsec_$(node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64'))")"
started=$(date +%s)

cleanup() {
  c rm -f "$name" >/dev/null 2>&1 || true
  c volume rm -f "$volume" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() {
  echo "container check: FAIL: $*"
  c logs "$name" 2>&1 | tail -20 || true
  exit 1
}
ok() { echo "ok   $*"; }

format=()
[ "$engine" = podman ] && format=(--format docker) # keeps the HEALTHCHECK (the OCI format has none)
c build "${format[@]}" ${RUN_FLAGS:-} ${BUILD_FLAGS:-} -t "$image" . >/tmp/"$name".build.log 2>&1 || {
  tail -30 /tmp/"$name".build.log
  fail "the image did not build"
}
ok "the image builds ($(($(date +%s) - started)) s)"

out=$(c run --rm ${RUN_FLAGS:-} "$image" 2>&1 || true)
grep -q 'BFF_MERCHANT_SECRET: must be set' <<<"$out" || fail "it started on 0.0.0.0 with the development secret: $out"
ok "it refuses to listen beyond loopback with the development secret"

run() { c run -d --name "$name" ${RUN_FLAGS:-} -p "127.0.0.1:$port:4020" -e BFF_MERCHANT_SECRET="$secret" -e LOG_LEVEL=warn -v "$volume:/data" "$image" >/dev/null; }
ready() {
  for _ in $(seq 1 60); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ready")" = 200 ] && return 0
    sleep 0.5
  done
  fail "/ready did not answer 200"
}
run
ready
[ "$(c exec "$name" id -un)" = node ] || fail "it does not run as node"
c healthcheck run "$name" >/dev/null 2>&1 || [ "$engine" = docker ] || fail "its health check fails"
ok "it runs as node, answers /ready, and its health check passes"

created=$(curl -s -X POST "http://127.0.0.1:$port/v1/checkouts" -H "Authorization: Bearer $secret" -H 'Content-Type: application/json' \
  -d '{"amount":1250,"subject":"Container check","reference":"ORD-CONTAINER-CHECK"}')
grep -q '"launchToken"' <<<"$created" || fail "no checkout: $created"
c exec "$name" node dist/cli.js checkouts | grep -q 'ORD-CONTAINER-CHECK' || fail "the operator's command does not list it"
ok "it takes a checkout, and bank-checkout-bff checkouts lists it inside the container"

c stop -t 15 "$name" >/dev/null
[ "$(c inspect "$name" --format '{{.State.ExitCode}}')" = 0 ] || fail "SIGTERM did not stop it with status 0"
c logs "$name" 2>&1 | grep -q 'SIGTERM: stopping' || fail "it did not say it was stopping"
c rm "$name" >/dev/null
run
ready
c exec "$name" node dist/cli.js checkouts | grep -q 'ORD-CONTAINER-CHECK' || fail "the checkout did not survive a restart in the volume"
ok "SIGTERM stops it with status 0; its SQLite file survives a restart in /data"
echo "container check: passed in $(($(date +%s) - started)) s"
