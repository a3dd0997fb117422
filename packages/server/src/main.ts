import { loadConfig } from './platform/config.js';
import { ConfigurationError } from './platform/errors.js';
import { startServer, type RunningServer } from './server.js';

async function main() {
  let server: RunningServer;
  try {
    const config = loadConfig();
    server = await startServer(config);
    const shutdown = (signal: NodeJS.Signals) => {
      server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      const force = setTimeout(() => {
        server.app.log.error('shutdown timed out; exiting');
        process.exit(1);
      }, config.shutdownTimeoutMs);
      force.unref();
      server.close().then(
        () => process.exit(0),
        (err: unknown) => {
          server.app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  } catch (err) {
    if (err instanceof ConfigurationError) {
      process.stderr.write(`slipway: ${err.message}\n`);
      process.exit(2);
    }
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') {
      process.stderr.write(`slipway: PORT: ${e.message}; set PORT to a free port\n`);
      process.exit(2);
    }
    process.stderr.write(`slipway: failed to start: ${e.stack ?? e.message}\n`);
    process.exit(1);
  }
}

void main();
