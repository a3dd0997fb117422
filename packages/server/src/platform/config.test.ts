import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigurationError } from './errors.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({}, '/srv/slipway');
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dataDir).toBe('/srv/slipway/.slipway');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.runtimeSettingsFile).toBeUndefined();
    expect(c.webDir).toMatch(/packages\/web\/dist$/);
  });

  it('reads every variable', () => {
    const c = loadConfig(
      {
        PORT: '9000',
        HOST: '0.0.0.0',
        SLIPWAY_DATA_DIR: '/var/lib/slipway',
        DATABASE_URL: 'postgres://u@db:5432/slipway',
        SLIPWAY_CONFIG_FILE: 'conf/config.json',
        SLIPWAY_BODY_LIMIT: '2048',
        LOG_LEVEL: 'warn',
      },
      '/opt',
    );
    expect(c).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/slipway',
      databaseUrl: 'postgres://u@db:5432/slipway',
      runtimeSettingsFile: '/opt/conf/config.json',
      bodyLimit: 2048,
      logLevel: 'warn',
    });
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('treats an empty PORT or HOST as unset, never as port 0', () => {
    const c = loadConfig({ PORT: '', HOST: '  ' });
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
  });

  it.each([
    ['PORT', 'abc', 'PORT: must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'PORT: must be a whole number from 0 to 65535'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL: must be a postgres:// or postgresql:// URL'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent'],
    ['SLIPWAY_ENGINE', 'maybe', 'SLIPWAY_ENGINE: must be on or off'],
    ['SLIPWAY_PGLITE_COMPILER', 'fast', 'SLIPWAY_PGLITE_COMPILER: must be baseline or optimising'],
    ['SLIPWAY_STEP_SPAWNER', 'thread', 'SLIPWAY_STEP_SPAWNER: must be helper or in-process'],
    [
      'SLIPWAY_AGENT_IMAGE',
      'bad image!',
      'SLIPWAY_AGENT_IMAGE: must be an image reference such as registry.example.com/slipway/agent:0.1.0',
    ],
    ['SLIPWAY_BODY_LIMIT', '-1', 'SLIPWAY_BODY_LIMIT: must be a whole number of bytes, 1 or more'],
  ])('refuses %s=%s naming the variable and the rule', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigurationError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
