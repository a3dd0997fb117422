import { describe, expect, it } from 'vitest';
import { connectUrl, reconnectDelay } from './agent.js';
import { parseArgs } from './cli.js';

describe('agent command line', () => {
  it('reads flags, with environment variables as fallback', () => {
    expect(
      parseArgs(
        [
          '--server',
          'https://slipway.example.com',
          '--token=abc',
          '--kubeconfig',
          '/k',
          '--context',
          'kind-kind',
        ],
        {},
      ),
    ).toEqual({
      server: 'https://slipway.example.com',
      token: 'abc',
      kubeconfig: '/k',
      context: 'kind-kind',
      heartbeatSeconds: 30,
      limited: false,
      allowedNamespaces: ['ozone'],
    });
    expect(
      parseArgs([], {
        SLIPWAY_SERVER: 'http://127.0.0.1:8080',
        SLIPWAY_AGENT_TOKEN: 't',
        SLIPWAY_LIMITED: 'true',
        SLIPWAY_ALLOWED_NAMESPACES: 'ozone, team-a',
        SLIPWAY_HEARTBEAT_SECONDS: '5',
      }),
    ).toMatchObject({ limited: true, allowedNamespaces: ['ozone', 'team-a'], heartbeatSeconds: 5 });
    expect(parseArgs(['--token', 'x', '--server', 'http://a'], { SLIPWAY_TOKEN: 'y' })).toMatchObject({
      token: 'x',
    });
    expect(parseArgs(['--help'], {})).toBe('help');
  });
  it('names the option and the rule for bad input', () => {
    expect(() => parseArgs([], {})).toThrow('--server is required (or SLIPWAY_SERVER)');
    expect(() => parseArgs(['--server', 'ftp://x'], {})).toThrow(
      '--server must be an http(s):// or ws(s):// address',
    );
    expect(() => parseArgs(['--server', 'http://x'], {})).toThrow(
      '--token is required (or SLIPWAY_AGENT_TOKEN)',
    );
    expect(() => parseArgs(['--server', 'http://x', '--token', 't', '--heartbeat-seconds', '0'], {})).toThrow(
      '--heartbeat-seconds must be a number from 1 to 300',
    );
    expect(() =>
      parseArgs(['--server', 'http://x', '--token', 't', '--allowed-namespaces', 'Bad_NS'], {}),
    ).toThrow('--allowed-namespaces: "Bad_NS" is not a namespace name');
    expect(() => parseArgs(['--bogus'], {})).toThrow('Unknown option --bogus');
    expect(() => parseArgs(['--server'], {})).toThrow('--server needs a value');
  });
  it('dials the agent endpoint over ws or wss', () => {
    expect(connectUrl('http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/api/agent/connect');
    expect(connectUrl('https://slipway.example.com/')).toBe('wss://slipway.example.com/api/agent/connect');
    expect(connectUrl('slipway.example.com')).toBe('wss://slipway.example.com/api/agent/connect');
  });

  it('backs off exponentially with jitter, up to a ceiling', () => {
    const backoff = { initialMs: 1_000, maxMs: 60_000 };
    expect([0, 1, 2, 3].map((a) => reconnectDelay(a, backoff, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000,
    ]);
    expect([0, 1, 2, 3].map((a) => reconnectDelay(a, backoff, () => 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(reconnectDelay(10, backoff, () => 1)).toBe(60_000);
    expect(reconnectDelay(1_000, backoff, () => 0)).toBe(30_000);
  });
});
