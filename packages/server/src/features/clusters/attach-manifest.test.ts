import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { attachFileName, attachObjects, attachYaml, type AttachManifestInput } from './attach-manifest.js';
import { hasKubernetesSchema, kubernetesSchemaProblem } from './kubernetes-schemas.js';

const input: AttachManifestInput = {
  clusterId: '6f1c3c1e-1d7b-4a7e-9d2a-1f2e3d4c5b6a',
  clusterName: 'Prod EU',
  token: 'slpa_secret-token',
  serverUrl: 'https://slipway.example.com',
  image: 'slipway/agent:0.1.0',
  limitedAgentPermission: false,
  allowedNamespaces: ['ozone'],
};

const kinds = (objects: { kind: string; metadata: { name: string; namespace?: string } }[]) =>
  objects.map((o) => `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`);

describe('attach manifest', () => {
  it('holds the Namespace, ServiceAccount, cluster-wide RBAC, Secret and Deployment, each valid', () => {
    const objects = attachObjects(input);
    expect(kinds(objects)).toEqual([
      'Namespace/slipway-agent',
      'ServiceAccount/slipway-agent/slipway-agent',
      'ClusterRole/slipway-agent',
      'ClusterRoleBinding/slipway-agent',
      'Secret/slipway-agent/slipway-agent',
      'Deployment/slipway-agent/slipway-agent',
    ]);
    for (const o of objects) {
      expect(hasKubernetesSchema(o.apiVersion, o.kind), o.kind).toBe(true);
      expect(kubernetesSchemaProblem(o), o.kind).toBeNull();
    }
  });

  it('gives a limited agent a Role and RoleBinding per allowed namespace and read-only facts', () => {
    const objects = attachObjects({
      ...input,
      limitedAgentPermission: true,
      allowedNamespaces: ['ozone', 'shop'],
    });
    expect(kinds(objects)).toEqual([
      'Namespace/slipway-agent',
      'ServiceAccount/slipway-agent/slipway-agent',
      'ClusterRole/slipway-agent-facts',
      'ClusterRoleBinding/slipway-agent-facts',
      'Namespace/ozone',
      'Role/ozone/slipway-agent',
      'RoleBinding/ozone/slipway-agent',
      'Namespace/shop',
      'Role/shop/slipway-agent',
      'RoleBinding/shop/slipway-agent',
      'Secret/slipway-agent/slipway-agent',
      'Deployment/slipway-agent/slipway-agent',
    ]);
    for (const o of objects) expect(kubernetesSchemaProblem(o), o.kind).toBeNull();
    const facts = objects.find((o) => o.metadata.name === 'slipway-agent-facts') as unknown as {
      rules: { verbs: string[] }[];
    };
    for (const rule of facts.rules)
      expect(rule.verbs.every((v) => ['get', 'list', 'watch'].includes(v))).toBe(true);
    const deployment = JSON.stringify(objects.at(-1));
    expect(deployment).toContain('"SLIPWAY_ALLOWED_NAMESPACES","value":"ozone,shop"');
  });

  it('is one YAML file whose documents parse back to the same objects', () => {
    const yaml = attachYaml(input);
    const docs = parseAllDocuments(yaml).map((d) => d.toJS() as object);
    expect(docs).toEqual(attachObjects(input));
    expect(attachFileName('Prod EU / main')).toBe('slipway-agent-prod-eu-main.yaml');
  });

  it('the schema check catches a broken object', () => {
    expect(
      kubernetesSchemaProblem({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'x' },
        spec: { replicas: 'two' },
      }),
    ).toMatch(/replicas/);
  });
});
