import { describe, expect, it } from 'vitest';
import {
  AGENT_PROTOCOL_VERSION,
  agentCommandSchema,
  agentMessageSchema,
  agentStreamCommandSchema,
  serverMessageSchema,
} from './index.js';

const hello = {
  type: 'hello',
  protocolVersion: AGENT_PROTOCOL_VERSION,
  agentVersion: '0.1.0',
  kubernetesVersion: 'v1.31.0',
  nodeCount: 3,
  totalVcpu: 12,
  namespaces: ['default', 'ozone'],
  installedAddons: ['tekton'],
  storageClasses: [
    {
      name: 'standard',
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      bindingMode: 'WaitForFirstConsumer',
      default: true,
    },
  ],
  limited: true,
  allowedNamespaces: ['ozone'],
};

describe('agent protocol', () => {
  it('accepts a hello and fills the open streams', () => {
    const parsed = agentMessageSchema.parse(hello);
    expect(parsed).toMatchObject({ type: 'hello', openStreams: [] });
  });
  it('names the field that is wrong in a hello', () => {
    const result = agentMessageSchema.safeParse({ ...hello, nodeCount: -1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['nodeCount']);
  });
  it('parses commands by kind with their defaults', () => {
    const apply = agentCommandSchema.parse({
      kind: 'apply',
      args: {
        manifests: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } }],
      },
    });
    expect(apply).toMatchObject({ kind: 'apply', args: { force: false, dryRun: false } });
    expect(apply.kind === 'apply' && apply.args.manifests[0]).toMatchObject({ data: { x: '1' } });
    expect(
      agentCommandSchema.safeParse({ kind: 'get', args: { apiVersion: 'v1', kind: 'Pod' } }).success,
    ).toBe(false);
    expect(agentCommandSchema.safeParse({ kind: 'drop-tables', args: {} }).success).toBe(false);
    expect(
      agentStreamCommandSchema.parse({ kind: 'logs', args: { namespace: 'a', pod: 'p' } }),
    ).toMatchObject({
      args: { follow: false },
    });
  });
  it('parses server messages', () => {
    expect(serverMessageSchema.parse({ type: 'welcome', protocolVersion: 1, clusterId: 'c' })).toMatchObject({
      resume: [],
    });
    expect(serverMessageSchema.safeParse({ type: 'command', id: '1', kind: 'list', args: {} }).success).toBe(
      false,
    );
  });
});
