// Builds the browser bundles (widget, dashboard) after `pnpm install`, so that `pnpm start` and
// `pnpm test` serve fresh assets with no extra command. A package opts in with a `build:ui` script.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packageDirs = ['packages', 'services'].flatMap((group) =>
  existsSync(path.join(root, group)) ? readdirSync(path.join(root, group)).map((name) => path.join(root, group, name)) : [],
);

for (const dir of packageDirs) {
  const manifest = path.join(dir, 'package.json');
  if (!existsSync(manifest)) continue;
  const { name, scripts } = JSON.parse(readFileSync(manifest, 'utf8'));
  if (!scripts?.['build:ui']) continue;
  console.log(`build:ui ${name}`);
  const result = spawnSync('npm', ['run', '--silent', 'build:ui'], { cwd: dir, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
