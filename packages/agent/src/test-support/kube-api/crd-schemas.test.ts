import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './test-client.js';

/** A CRD in the shape of Tekton's (config/300-crds/300-pipelinerun.yaml), cut down to a few fields. */
const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'pipelineruns.tekton.dev' },
  spec: {
    group: 'tekton.dev',
    scope: 'Namespaced',
    names: { kind: 'PipelineRun', plural: 'pipelineruns', shortNames: ['pr'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                properties: {
                  params: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['name', 'value'],
                      properties: {
                        name: { type: 'string' },
                        value: { 'x-kubernetes-preserve-unknown-fields': true },
                      },
                    },
                  },
                  pipelineSpec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  status: { type: 'string' },
                  timeouts: {
                    type: 'object',
                    properties: { pipeline: { type: 'string' }, tasks: { type: 'string' } },
                  },
                  taskRunTemplate: {
                    type: 'object',
                    properties: { serviceAccountName: { type: 'string', default: 'default' } },
                  },
                },
              },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
      },
    ],
  },
};

const RUNS = '/apis/tekton.dev/v1/namespaces/default/pipelineruns';
const run = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'tekton.dev/v1',
  kind: 'PipelineRun',
  metadata: { name, namespace: 'default' },
  spec,
});

let k: TestClient;
beforeAll(async () => {
  k = await TestClient.start({ customResourceDefinitions: [CRD] });
});
afterAll(async () => {
  await k?.close();
});

describe('custom resources served with their CRD schema', () => {
  it('is discovered as the CRD names it', async () => {
    const list = await k.get('/apis/tekton.dev/v1');
    expect(list.body.resources).toContainEqual(
      expect.objectContaining({
        name: 'pipelineruns',
        kind: 'PipelineRun',
        namespaced: true,
        shortNames: ['pr'],
      }),
    );
  });

  it('refuses what the schema refuses: 422 Invalid with the causes, as the apiserver answers', async () => {
    const res = await k.post(RUNS, run('bad', { params: [{ value: 'x' }], timeouts: { pipeline: 5 } }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      reason: 'Invalid',
      details: { group: 'tekton.dev', kind: 'PipelineRun' },
    });
    expect(res.body.details.causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.params[0].name' },
        {
          reason: 'FieldValueTypeInvalid',
          message:
            'Invalid value: "integer": spec.timeouts.pipeline in body must be of type string: "integer"',
          field: 'spec.timeouts.pipeline',
        },
      ]),
    );
  });

  it('prunes unknown fields (Strict refuses them), keeps preserved subtrees and fills in defaults', async () => {
    const spec = {
      pipelineSpec: { tasks: [{ name: 'a', anything: true }] },
      colour: 'red',
      taskRunTemplate: {},
    };
    const strict = await k.post(`${RUNS}?fieldValidation=Strict`, run('strict', spec));
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe('strict decoding error: unknown field "spec.colour"');
    const res = await k.post(RUNS, run('pruned', spec));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toContain('unknown field \\"spec.colour\\"');
    expect(res.body.spec).toEqual({
      pipelineSpec: { tasks: [{ name: 'a', anything: true }] },
      taskRunTemplate: { serviceAccountName: 'default' },
    });
  });

  it('takes a server-side apply, and a later apply that drops a field removes it', async () => {
    const apply = (spec: Record<string, unknown>) =>
      k.call(
        'PATCH',
        `${RUNS}/applied?fieldManager=slipway`,
        JSON.stringify(run('applied', spec)),
        'application/apply-patch+yaml',
      );
    expect((await apply({ status: 'PipelineRunPending', timeouts: { pipeline: '1h0m0s' } })).status).toBe(
      201,
    );
    const started = await apply({ timeouts: { pipeline: '1h0m0s' } });
    expect(started.status).toBe(200);
    // a default fills in a field of an object that is there; taskRunTemplate is not
    expect(started.body.spec).toEqual({ timeouts: { pipeline: '1h0m0s' } });
  });
});
