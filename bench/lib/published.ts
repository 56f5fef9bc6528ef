/**
 * What a merchant downloads: every package built as published (scripts/build-package.mjs),
 * the one-file `bank-checkout.min.js` (minified and gzip -9, languages on demand apart), and
 * each package's tarball as `npm pack` makes it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const root = new URL('../../', import.meta.url).pathname;
export const PACKAGES = ['contract', 'provider', 'sandbox', 'bff', 'elements'] as const;

export interface PublishedSizes {
  /** `dist/bank-checkout.min.js`: bytes and gzip -9 bytes. */
  oneFile: { min: number; gzip: number };
  /** The languages it loads on demand, gzip -9 bytes each. */
  onDemand: { file: string; gzip: number }[];
  /** Tarball and unpacked bytes, by package. */
  tarballs: { name: string; size: number; unpacked: number; files: number }[];
}

export function measurePublished(): PublishedSizes {
  const env = { ...process.env, NODE_OPTIONS: '' };
  execFileSync(process.execPath, [`${root}scripts/build-package.mjs`], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const dist = `${root}packages/elements/dist/`;
  const min = readFileSync(`${dist}bank-checkout.min.js`);
  const onDemand = readdirSync(dist)
    .filter((f) => /^bank-checkout\.min\..+\.js$/.test(f))
    .map((file) => ({ file, gzip: gzipSync(readFileSync(dist + file), { level: 9 }).length }));
  const tarballs = PACKAGES.map((name) => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', `./packages/${name}`], { cwd: root, env, encoding: 'utf8' });
    const [info] = JSON.parse(out) as { size: number; unpackedSize: number; entryCount: number }[];
    return { name: `@bank-checkout/${name}`, size: info!.size, unpacked: info!.unpackedSize, files: info!.entryCount };
  });
  return { oneFile: { min: min.length, gzip: gzipSync(min, { level: 9 }).length }, onDemand, tarballs };
}
