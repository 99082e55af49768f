import { configDefaults, defineConfig } from 'vitest/config';

// One vitest project per tier, chosen by file name, so the fast tier runs alone (`pnpm test:unit`)
// while `vitest run` (and `pnpm test`) still runs every project. Each project extends the root
// settings below (setup file, timeouts, pool).
const unit = [
  'packages/*/src/**/*.unit.spec.ts',
  'services/*/src/**/*.unit.spec.ts',
  'bench/**/*.unit.spec.ts',
  // A pure check of files in the repository: no server, no build, no network.
  'test/k8s-manifests.spec.ts',
];
// The hot-path literals check builds a TypeScript program of the services: too slow for the fast tier.
const int = ['packages/*/src/**/*.int.spec.ts', 'services/*/src/**/*.int.spec.ts', 'test/hot-path-literals.spec.ts'];
// Black-box tests of a running app (the bench's builds and starts its servers); the fuzz spec drives the routes.
const e2e = ['test/**/*.e2e.spec.ts', 'bench/**/*.e2e.spec.ts', 'test/fuzz/**/*.spec.ts'];
const browser = ['test/browser/**/*.spec.ts'];

export default defineConfig({
  test: {
    setupFiles: ['./test/setup/reflect-metadata.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // A condition polled for is awaited this long: a loaded CI machine renders and answers late.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    projects: [
      // Unit files share their workers' module graph (no isolation): importing the workspace again for
      // each file is most of the tier's time, and a unit test keeps no state between files.
      { extends: true, test: { name: 'unit', include: unit, isolate: false } },
      { extends: true, test: { name: 'int', include: int } },
      { extends: true, test: { name: 'e2e', include: e2e, exclude: [...configDefaults.exclude, ...browser] } },
      { extends: true, test: { name: 'browser', include: browser } },
    ],
  },
});
