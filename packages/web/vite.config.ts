import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const contracts = fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url));
/** Where `npm run dev:web` sends /api and /config: a running Slipway server. */
const apiTarget = process.env.SLIPWAY_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@slipway/contracts': contracts } },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: apiTarget, ws: true, changeOrigin: true },
      '/config': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
});
