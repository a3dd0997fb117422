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

  it('reads SLIPWAY_GIT_ALLOW (nothing allowed by default) and SLIPWAY_TRUST_PROXY (false by default)', () => {
    expect(loadConfig({})).toMatchObject({ gitAllow: [], trustProxy: false });
    expect(loadConfig({ SLIPWAY_GIT_ALLOW: 'file,127.0.0.1,10.0.0.0/8,git.internal:22' }).gitAllow).toEqual([
      { kind: 'file' },
      { kind: 'ip', address: '127.0.0.1', family: 4 },
      { kind: 'cidr', address: '10.0.0.0', prefix: 8, family: 4 },
      { kind: 'host', host: 'git.internal', port: 22 },
    ]);
    expect(loadConfig({ SLIPWAY_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ SLIPWAY_TRUST_PROXY: 'FALSE' }).trustProxy).toBe(false);
    expect(loadConfig({ SLIPWAY_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ SLIPWAY_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
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
    [
      'SLIPWAY_GIT_ALLOW',
      'file,10.0.0.0/40',
      'SLIPWAY_GIT_ALLOW: "10.0.0.0/40" is not an entry: must be a comma-separated list of file, host names, host:port, IPs or CIDRs (such as 127.0.0.1,10.0.0.0/8,git.internal:22)',
    ],
    ['SLIPWAY_GIT_ALLOW', 'git host', 'SLIPWAY_GIT_ALLOW: "git host" is not an entry'],
    [
      'SLIPWAY_TRUST_PROXY',
      'yes',
      'SLIPWAY_TRUST_PROXY: must be false, true, a number of proxy hops (such as 1), or a comma-separated list of proxy IPs or CIDRs',
    ],
    ['SLIPWAY_TRUST_PROXY', '10.0.0.0/8,proxy.lan', 'SLIPWAY_TRUST_PROXY: must be false, true'],
  ])('refuses %s=%s naming the variable and the rule', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigurationError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
