// The portal's build: web/ → web/dist, served by the service at `/` (src/partner-api/portal-site.ts).
// `npm run dev:web` serves it with hot reload and sends /api and /docs to a service on :8080.
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Modern browsers preload modules themselves; no polyfill keeps every script a hashed file.
    modulePreload: { polyfill: false },
    sourcemap: true,
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/docs': 'http://127.0.0.1:8080' },
  },
})
