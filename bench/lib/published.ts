/**
 * What a merchant downloads: every package built as published (scripts/build-package.mjs),
 * the one-file `bank-checkout.min.js` (every element and language; minified and gzip -9), and
 * each package's tarball as `npm pack` makes it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const root = new URL('../../', import.meta.url).pathname;
export const PACKAGES = ['contract', 'provider', 'sandbox', 'bff', 'elements'] as const;

export interface PublishedSizes {
  /** `dist/bank-checkout.min.js`: bytes and gzip -9 bytes. */
  oneFile: { min: number; gzip: number };
  /** Tarball and unpacked bytes, by package. */
  tarballs: { name: string; size: number; unpacked: number; files: number }[];
}

/**
 * `built`: the packages' `dist/` were just built from this tree (CI's install check builds them
 * right before the benchmarks: BENCH_BUILT=1), so they are measured as they are.
 */
export function measurePublished(built = process.env.BENCH_BUILT === '1'): PublishedSizes {
  const env = { ...process.env, NODE_OPTIONS: '' };
  if (!built) execFileSync(process.execPath, [`${root}scripts/build-package.mjs`], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const dist = `${root}packages/elements/dist/`;
  const min = readFileSync(`${dist}bank-checkout.min.js`);
  const tarballs = PACKAGES.map((name) => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', `./packages/${name}`], { cwd: root, env, encoding: 'utf8' });
    const [info] = JSON.parse(out) as { size: number; unpackedSize: number; entryCount: number }[];
    return { name: `@bank-checkout/${name}`, size: info!.size, unpacked: info!.unpackedSize, files: info!.entryCount };
  });
  return { oneFile: { min: min.length, gzip: gzipSync(min, { level: 9 }).length }, tarballs };
}
