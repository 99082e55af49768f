import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `build:ui` writes the dashboard (index.html and hashed assets/). */
export const dashboardDistDir = fileURLToPath(new URL('../dist/', import.meta.url));

/** False until `pnpm install` (postinstall) or the package's `build:ui` has run. */
export const isDashboardBuilt = (distDir = dashboardDistDir): boolean => existsSync(join(distDir, 'index.html'));
