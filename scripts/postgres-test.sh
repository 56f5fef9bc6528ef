#!/usr/bin/env bash
# Installs (when missing) and starts PostgreSQL from Debian's packages on 127.0.0.1:5432 and
# creates the role and database the store's contract tests use:
#   TEST_DATABASE_URL=postgres://bank_checkout:bank_checkout@127.0.0.1:5432/bank_checkout_test
# Run as root (CI does). Stop it with: pg_ctlcluster 15 main stop
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(pg_lsclusters -h | awk 'NR==1{print $1}')
if [ -z "$version" ]; then
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start 2>/dev/null || true
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.5; done
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_roles WHERE rolname='bank_checkout'\" | grep -q 1 || psql -q -c \"CREATE ROLE bank_checkout LOGIN PASSWORD 'bank_checkout'\""
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_database WHERE datname='bank_checkout_test'\" | grep -q 1 || psql -q -c \"CREATE DATABASE bank_checkout_test OWNER bank_checkout\""
echo "PostgreSQL $version ready: postgres://bank_checkout:bank_checkout@127.0.0.1:5432/bank_checkout_test"
