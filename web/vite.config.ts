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
    reportCompressedSize: false,
  },
});
