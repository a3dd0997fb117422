import { describe, expect, it } from 'vitest';
import {
  invalidStatus,
  pruneUnknownFields,
  strictDecodingMessage,
  validateObject,
  validateUpdate,
} from './openapi-validate.js';

type Dep = {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  spec: Record<string, unknown> & {
    template: { metadata: Record<string, unknown>; spec: { containers: Record<string, unknown>[] } };
  };
};
function deployment(): Dep {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }] },
      },
    },
  };
}
const strict = { fieldValidation: 'Strict' as const };

describe('validateObject: decoding (400)', () => {
  it('accepts a valid Deployment', () => {
    expect(validateObject(deployment(), strict)).toEqual({ errors: [], unknownFields: [] });
  });

  it('answers replicas: "three" as the decoder does', () => {
    const d = deployment();
    d.spec.replicas = 'three';
    expect(validateObject(d, strict).errors).toEqual([
      {
        field: 'spec.replicas',
        reason: 'BadRequest',
        message:
          'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
      },
    ]);
  });

  it('names the innermost struct and the Go type of lists and objects', () => {
    const d = deployment();
    d.spec.template.spec.containers[0]!.image = 5;
    expect(validateObject(d, strict).errors[0]!.message).toContain(
      'cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string',
    );
    const e = deployment();
    e.spec.template.spec.containers = 'x' as never;
    expect(validateObject(e, strict).errors[0]!.message).toContain(
      'Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
    );
  });

  it('accepts both forms of int-or-string and quantities', () => {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 80, targetPort: 'http' }] },
    };
    expect(validateObject(svc, strict).errors).toEqual([]);
  });

  it('lists unknown fields as dotted paths for Strict and Warn, none for Ignore', () => {
    const d = deployment();
    d.spec.foo = 1;
    d.spec.template.spec.containers[0]!.imagee = 'x';
    expect(validateObject(d, strict).unknownFields).toEqual([
      'spec.template.spec.containers[0].imagee',
      'spec.foo',
    ]); // in document order
    expect(validateObject(d, { fieldValidation: 'Warn' }).unknownFields).toHaveLength(2);
    expect(validateObject(d, { fieldValidation: 'Ignore' }).unknownFields).toEqual([]);
    expect(strictDecodingMessage(['spec.foo'])).toBe('strict decoding error: unknown field "spec.foo"');
    pruneUnknownFields(d);
    expect(d.spec).not.toHaveProperty('foo');
    expect(d.spec.template.spec.containers[0]).not.toHaveProperty('imagee');
  });
});

describe('validateObject: validation (422)', () => {
  it('wants a selector, and a missing one does not match the template', () => {
    const d = deployment();
    delete d.spec.selector;
    const { errors } = validateObject(d, strict);
    expect(errors).toEqual([
      { field: 'spec.selector', reason: 'FieldValueRequired', message: 'Required value' },
      {
        field: 'spec.template.metadata.labels',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      },
    ]);
    const status = invalidStatus(d, errors);
    expect(status.message).toBe(
      'Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`]',
    );
    expect(status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      details: { name: 'web', group: 'apps', kind: 'Deployment' },
    });
  });

  it('wants a container name and image, and a valid name', () => {
    const d = deployment();
    d.spec.template.spec.containers = [{ ports: [] }, { name: 'Bad_Name', image: 'x' }];
    const fields = validateObject(d, strict).errors.map((e) => `${e.field}: ${e.message}`);
    expect(fields).toContain('spec.template.spec.containers[0].name: Required value');
    expect(fields).toContain('spec.template.spec.containers[0].image: Required value');
    expect(
      fields.some((f) =>
        f.startsWith(
          'spec.template.spec.containers[1].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label',
        ),
      ),
    ).toBe(true);
  });

  it('checks metadata.name as a DNS-1123 subdomain, or a DNS-1035 label for a Service', () => {
    const d = deployment();
    d.metadata = { name: 'Web' };
    expect(validateObject(d, strict).errors[0]!.message).toMatch(
      /^Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of/,
    );
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: '1svc' },
      spec: { ports: [{ port: 80 }] },
    };
    const errors = validateObject(svc, strict).errors;
    expect(errors[0]!.message).toContain('a DNS-1035 label must consist of');
    expect(invalidStatus(svc, errors).message).toMatch(
      /^Service "1svc" is invalid: metadata.name: Invalid value/,
    );
  });

  it('wants Service ports in range and named when there are several', () => {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 0 }, { port: 80, name: 'http' }] },
    };
    expect(validateObject(svc, strict).errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      'spec.ports[0].name: Required value',
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    const none = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: {} };
    expect(validateObject(none, strict).errors).toEqual([
      { field: 'spec.ports', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });

  it('checks ConfigMap keys and label values', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', labels: { a: 'not ok' } },
      data: { 'bad key': 'x' },
    };
    expect(validateObject(cm, strict).errors.map((e) => e.field)).toEqual([
      'metadata.labels',
      'data[bad key]',
    ]);
  });
});

describe('validateUpdate (immutable fields)', () => {
  it("refuses a changed Deployment selector with the apiserver's message", () => {
    const old = deployment();
    const changed = deployment();
    changed.spec.selector = { matchLabels: { app: 'web2' } };
    const errors = validateUpdate(old, changed);
    expect(errors).toEqual([
      {
        field: 'spec.selector',
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      },
    ]);
    expect(validateUpdate(old, deployment())).toEqual([]);
  });

  it('refuses changed data of an immutable ConfigMap', () => {
    const old = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      immutable: true,
      data: { a: '1' },
    };
    const changed = { ...old, data: { a: '2' } };
    expect(validateUpdate(old, changed).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
  });
});
