#!/usr/bin/env node
/**
 * The container's runtime package.json (Dockerfile, build stage): the BFF's own package.json as
 * packed, made into the app that `npm ci` installs from the lockfile written next to it. Its
 * workspace packages come from their tarballs in `<packed dir>`; `pg` and the OpenTelemetry Node
 * SDK, optional peers of the BFF, become dependencies (the image serves PostgreSQL and telemetry
 * alike); nothing of development stays (no devDependencies, no scripts).
 *
 * Usage: node scripts/runtime-manifest.mjs <packed dir> <package.json to rewrite>
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [packedDir, file] = process.argv.slice(2);
if (!packedDir || !file) {
  console.error('usage: node scripts/runtime-manifest.mjs <packed dir> <package.json>');
  process.exit(2);
}
const packed = readdirSync(packedDir);
/** The tarball of a workspace package (`@bank-checkout/contract` → bank-checkout-contract-<version>.tgz). */
const tarball = (name) => {
  const prefix = `${name.slice(1).replace('/', '-')}-`;
  const found = packed.find((f) => f.startsWith(prefix) && f.endsWith('.tgz') && /^\d/.test(f.slice(prefix.length)));
  if (!found) throw new Error(`runtime-manifest: no tarball of ${name} in ${packedDir}`);
  return `file:${resolve(join(packedDir, found))}`;
};

const pkg = JSON.parse(readFileSync(file, 'utf8'));
delete pkg.devDependencies;
delete pkg.scripts;
for (const name of Object.keys(pkg.dependencies)) if (name.startsWith('@bank-checkout/')) pkg.dependencies[name] = tarball(name);
pkg.dependencies['@bank-checkout/elements'] = tarball('@bank-checkout/elements');
for (const name of ['pg', '@opentelemetry/sdk-node']) {
  if (!pkg.peerDependencies?.[name]) throw new Error(`runtime-manifest: the BFF names no ${name} among its peers`);
  pkg.dependencies[name] = pkg.peerDependencies[name];
}
// The one install script among them (protobufjs, under the SDK's gRPC exporter) only prints a
// version warning: not run.
pkg.allowScripts = { protobufjs: false };
pkg.private = true;
writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
