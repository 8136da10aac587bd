/**
 * Builds the console into web/dist, which the API serves at `/` (src/api/console-routes.ts).
 * Relative asset URLs (`base: './'`), so the page also works behind a proxy that mounts the API
 * under a prefix. No inline scripts or styles: the API's Content-Security-Policy allows neither.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Inlined assets would be data: URLs in scripts and styles; keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
