import type { Plugin } from 'esbuild';

export declare const workspaceSources: (
  root: string,
  options?: { externals?: 'bare' | 'absolute' | 'relative'; outdir?: string },
) => Plugin;
