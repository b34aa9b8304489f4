/**
 * @module vite.config
 * The console's build: `web/` → `web/dist/` (index.html plus content-hashed files under `assets/`),
 * served by lakeline itself (the local gateway; S3 + CloudFront in AWS). Nothing is loaded from a
 * CDN, no script is inlined (the CSP allows only `script-src 'self'`), and the heavy parts (the
 * editor; the lineage graph in phase 2) are chunks loaded on demand.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The polyfill would be an inline script; every browser the console supports has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // .vite/manifest.json: which files the first page loads and which load on demand (bench/console.ts, the size budget test).
    manifest: true,
    reportCompressedSize: false,
    // The budget that matters is the first page's gzipped JavaScript (≤ 300 KB, checked by a test);
    // the on-demand editor chunk is larger than Vite's default warning size by design.
    chunkSizeWarningLimit: 2000,
  },
});
