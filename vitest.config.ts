import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.spec.ts', 'services/*/src/**/*.spec.ts', 'test/**/*.spec.ts'],
    setupFiles: ['./test/setup/reflect-metadata.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
