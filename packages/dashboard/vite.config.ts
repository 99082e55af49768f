import { defineConfig } from 'vite';

/** Preact through esbuild's automatic JSX runtime: no framework plugin needed. */
export default defineConfig({
  base: '/dashboard/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
});
