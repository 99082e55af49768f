// Bundles the widget into one minified IIFE, dist/widget.js, and reports its gzipped size.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const dir = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.join(dir, 'dist', 'widget.js');
mkdirSync(path.dirname(outfile), { recursive: true });

await build({
  entryPoints: [path.join(dir, 'src', 'bundle.ts')],
  outfile,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});

const bytes = readFileSync(outfile);
console.log(`widget.js: ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipSync(bytes).length / 1024).toFixed(1)} KB gzipped`);
