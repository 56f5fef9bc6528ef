import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const root = process.argv[2] ?? '/work/wt/perf/';
const r = await build({ entryPoints: ['@bank-checkout/elements'], absWorkingDir: root, bundle: true, minify: true, format: 'esm', splitting: true, outdir: '/kit', write: false, metafile: true, logLevel: 'error' });
const o = r.metafile.outputs;
const imported = new Set(Object.values(o).flatMap((x) => x.imports.map((i) => i.path)));
const entry = Object.keys(o).find((p) => o[p].entryPoint && !imported.has(p));
const loaded = new Set(); const visit = (p) => { if (loaded.has(p)) return; loaded.add(p); for (const i of o[p].imports) if (i.kind === 'import-statement') visit(i.path); }; visit(entry);
let sum = 0;
for (const f of r.outputFiles) { const n = Object.keys(o).find(k=>k.endsWith(f.path)); const up = loaded.has(n); const g = gzipSync(f.text, { level: 9 }).length; if (up) sum += g;
  console.log(`${up ? 'UP ' : '   '}${n.padEnd(24)} ${String(g).padStart(6)}  ${o[n].entryPoint ?? ''}  imports: ${o[n].imports.map(i=>i.path.replace('kit/','')+(i.kind==='dynamic-import'?'(dyn)':'')).join(' ')}`);
  if (process.env.V && up) for (const [k, v] of Object.entries(o[n].inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput)) console.log(`      ${v.bytesInOutput.toString().padStart(6)} ${k.replace(/^.*node_modules\//,'nm/').replace(/^.*packages\//,'')}`);
}
console.log('sum up front', sum, 'files', loaded.size);
