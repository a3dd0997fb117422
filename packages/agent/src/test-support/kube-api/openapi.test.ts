import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fieldSchema, itemSchema, loadOpenApi, schemaFor, shapeOf } from './openapi.js';

describe('loadOpenApi', () => {
  it('serves the Kubernetes v1.31 swagger document with the groups the test server serves', () => {
    const v2 = loadOpenApi().v2() as {
      swagger: string;
      paths: Record<string, unknown>;
      definitions: Record<string, unknown>;
    };
    expect(v2.swagger).toBe('2.0');
    expect(v2.paths).toHaveProperty('/apis/apps/v1/namespaces/{namespace}/deployments/{name}');
    expect(v2.paths).toHaveProperty('/api/v1/namespaces/{namespace}/secrets');
    expect(v2.paths).toHaveProperty('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');
    expect(v2.paths).not.toHaveProperty('/apis/policy/v1/poddisruptionbudgets');
    expect(v2.definitions).toHaveProperty(['io.k8s.apimachinery.pkg.apis.meta.v1.Status']);
    // The image volume source is new in 1.31: the spec is really v1.31.
    const volume = v2.definitions['io.k8s.api.core.v1.Volume'] as { properties: Record<string, unknown> };
    expect(volume.properties).toHaveProperty('image');
  });

  it('indexes the v3 documents by path with the SHA-512 of each as its hash', () => {
    const api = loadOpenApi();
    const index = api.v3Index() as { paths: Record<string, { serverRelativeURL: string }> };
    expect(Object.keys(index.paths)).toEqual(
      expect.arrayContaining(['api/v1', 'apis/apps/v1', 'apis/batch/v1', 'apis', 'api', 'version']),
    );
    const url = index.paths['apis/apps/v1']!.serverRelativeURL;
    const hash = createHash('sha512')
      .update(JSON.stringify(api.v3('apis/apps/v1')))
      .digest('hex')
      .toUpperCase();
    expect(url).toBe(`/openapi/v3/apis/apps/v1?hash=${hash}`);
    const doc = api.v3('/openapi/v3/apis/apps/v1') as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.0.0');
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/apis/apps/v1/'))).toBe(true);
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!.patch!;
    expect(Object.keys(patch.requestBody!.content)).toContain('application/apply-patch+yaml');
    expect(doc.components.schemas).toHaveProperty(['io.k8s.api.apps.v1.Deployment']);
    expect(JSON.stringify(doc)).not.toContain('#/definitions/');
    expect(api.v3(url)).toBe(api.v3('apis/apps/v1'));
    expect(api.v3('apis/policy/v1')).toBeUndefined();
  });
});

describe('schemaFor', () => {
  it('finds a kind by apiVersion and walks to the containers list with its merge key', () => {
    const deployment = schemaFor('apps/v1', 'Deployment');
    expect(deployment?.['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', kind: 'Deployment', version: 'v1' },
    ]);
    const podSpec = fieldSchema(fieldSchema(fieldSchema(deployment, 'spec'), 'template'), 'spec');
    const containers = fieldSchema(podSpec, 'containers');
    expect(containers?.['x-kubernetes-patch-merge-key']).toBe('name');
    expect(shapeOf(containers)).toEqual({ kind: 'list', atomic: false, listType: 'map', keys: ['name'] });
    expect(shapeOf(fieldSchema(itemSchema(containers), 'ports'))).toMatchObject({
      keys: ['containerPort', 'protocol'],
    });
    expect(shapeOf(fieldSchema(itemSchema(containers), 'args'))).toMatchObject({ atomic: true });
    expect(shapeOf(fieldSchema(fieldSchema(deployment, 'spec'), 'selector'))).toEqual({
      kind: 'struct',
      atomic: true,
    });
    expect(schemaFor('v1', 'Secret')).toBeDefined();
    expect(schemaFor('example.com/v1', 'Widget')).toBeUndefined();
  });
});
