#!/usr/bin/env node
// Fails when packages/elements/custom-elements.json is not what `npm run analyze` makes from the
// sources today (CI runs it). It regenerates the manifest in place: when it was stale, the fresh
// one is left there, ready to commit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const manifest = new URL('../packages/elements/custom-elements.json', import.meta.url);
const before = readFileSync(manifest, 'utf8');
execFileSync('npm', ['run', '--silent', 'analyze'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const after = readFileSync(manifest, 'utf8');
if (before !== after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  console.error(`packages/elements/custom-elements.json is stale (first difference at line ${line + 1}):`);
  console.error(`  committed: ${a[line]?.trim() ?? '(end of file)'}\n  from src:  ${b[line]?.trim() ?? '(end of file)'}`);
  console.error('It is regenerated now: review and commit it (`npm run analyze` makes it).');
  process.exit(1);
}
console.log('custom-elements.json is current');
