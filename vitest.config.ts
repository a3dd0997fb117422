import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';
import { SpreadBrowserTests } from './vitest.sequencer';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));
const agentSource = (file: string) => fileURLToPath(new URL(`./packages/agent/src/${file}`, import.meta.url));
// The more specific agent entry comes first: aliases match by prefix, the first one wins.
const alias = {
  '@slipway/contracts': contracts,
  '@slipway/agent/test-kube-api-server': agentSource('test-support/kube-api-server.ts'),
  '@slipway/agent': agentSource('index.ts'),
};
const webConfig = fileURLToPath(new URL('./packages/web/vite.config.ts', import.meta.url));

const webProject: TestProjectConfiguration = {
  extends: './packages/web/vite.config.ts',
  resolve: { alias },
  test: {
    name: 'web',
    root: './packages/web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // a test may wait 30 s for each of several things on a loaded machine (test/setup.ts)
    testTimeout: 120_000,
    setupFiles: ['./src/test/setup.ts'],
  },
};

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on the 2-core machines this project is
    // built and tested on, that is one file at a time. Most files wait on child processes, sockets
    // and timers, so one per core is faster, and the timeouts leave room for a loaded machine.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SpreadBrowserTests },
    projects: [
      {
        resolve: { alias },
        test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          environment: 'node',
          // Files share a worker's modules instead of each importing the whole server again (that
          // import was 1-2 s a file, 160 files). Each file still makes its own app and database.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'agent',
          include: ['packages/agent/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The web project needs its Vite config (plugins, aliases).
      ...(existsSync(webConfig) ? [webProject] : []),
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          // one at a time, beside the unit files (see e2e/one-at-a-time.ts)
          setupFiles: ['./e2e/one-at-a-time.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
