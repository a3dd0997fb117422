import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOBUF, decodeObject, encodeObject } from './protobuf.js';
import { KubeApiServer } from './server.js';

describe('TLS', () => {
  let api: KubeApiServer;
  beforeAll(async () => {
    api = await KubeApiServer.start({ tls: true, token: 'tls-t0k' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves HTTPS with a certificate the kubeconfig trusts, and the client sends its token', async () => {
    expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const kubeconfig = api.kubeconfig();
    expect(kubeconfig).toMatch(/certificate-authority-data: [A-Za-z0-9+/=]+\n/);
    expect(kubeconfig).toContain('token: tls-t0k');
    expect(kubeconfig).not.toContain('insecure-skip-tls-verify');
    const config = new KubeConfig();
    config.loadFromString(kubeconfig);
    const namespaces = await config.makeApiClient(CoreV1Api).listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toContain('kube-system');
    // Without the CA the certificate is not trusted.
    await expect(fetch(`${api.url}/version`)).rejects.toThrow();
  });
});

describe('protobuf', () => {
  let api: KubeApiServer;
  beforeAll(async () => {
    api = await KubeApiServer.start();
  });
  afterAll(async () => {
    await api?.close();
  });

  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'sh.helm.release.v1.web.v1',
      namespace: 'default',
      labels: { owner: 'helm', name: 'web' },
    },
    type: 'helm.sh/release.v1',
    data: { release: Buffer.from('H4sI…').toString('base64') },
  };

  it('reads an enveloped Secret as Go writes it, empty strings and unknown fields included', () => {
    const str = (n: number, s: string) => [(n << 3) | 2, Buffer.byteLength(s), ...Buffer.from(s)];
    const msg = (n: number, bytes: number[]) => [(n << 3) | 2, bytes.length, ...bytes];
    const meta = [
      ...str(1, 'a'),
      ...str(2, ''),
      ...str(3, 'default'),
      0x38,
      0x00,
      ...msg(8, [0x08, 0x80, 0x8c, 0x15, 0x10, 0x00]),
    ];
    const entry = [...str(1, 'k'), ...msg(2, [0xff, 0x00])];
    const raw = [
      ...msg(1, meta),
      ...msg(2, entry),
      ...str(3, 'Opaque'),
      0x78,
      0x01 /* field 15: unknown, skipped */,
    ];
    const unknown = [
      ...msg(1, [...str(1, 'v1'), ...str(2, 'Secret')]),
      ...msg(2, raw),
      ...str(3, ''),
      ...str(4, ''),
    ];
    const decoded = decodeObject(Buffer.from([0x6b, 0x38, 0x73, 0x00, ...unknown]));
    expect(decoded).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'a',
        generateName: '',
        namespace: 'default',
        generation: 0,
        creationTimestamp: '1970-01-05T00:00:00Z',
      },
      data: { k: Buffer.from([0xff, 0x00]).toString('base64') },
      type: 'Opaque',
    });
    expect(decodeObject(encodeObject(secret))).toEqual(secret);
  });

  it('stores a Secret sent in protobuf and answers in protobuf when asked first, JSON otherwise', async () => {
    const headers = { 'content-type': PROTOBUF, accept: `${PROTOBUF}, application/json` };
    const created = await fetch(`${api.url}/api/v1/namespaces/default/secrets`, {
      method: 'POST',
      headers,
      body: encodeObject(secret),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe(PROTOBUF);
    const body = decodeObject(Buffer.from(await created.arrayBuffer()));
    expect(body).toMatchObject({
      kind: 'Secret',
      metadata: { name: secret.metadata.name, uid: expect.any(String) },
      data: secret.data,
    });
    expect(api.get('v1', 'Secret', secret.metadata.name, 'default')?.data).toEqual(secret.data);

    const list = await fetch(`${api.url}/api/v1/namespaces/default/secrets?labelSelector=owner%3Dhelm`, {
      headers: { accept: PROTOBUF },
    });
    const items = decodeObject(Buffer.from(await list.arrayBuffer()));
    expect(items).toMatchObject({
      kind: 'SecretList',
      metadata: { resourceVersion: expect.any(String) },
      items: [{ type: 'helm.sh/release.v1' }],
    });

    const missing = await fetch(`${api.url}/api/v1/namespaces/default/secrets/nope`, {
      headers: { accept: PROTOBUF },
    });
    expect(missing.status).toBe(404);
    expect(decodeObject(Buffer.from(await missing.arrayBuffer()))).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      code: 404,
      details: { name: 'nope', kind: 'secrets' },
    });

    const json = await fetch(`${api.url}/api/v1/namespaces/default/secrets/${secret.metadata.name}`);
    expect(json.headers.get('content-type')).toBe('application/json');

    const options = encodeObject({ apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] });
    const dry = await fetch(`${api.url}/api/v1/namespaces/default/secrets/${secret.metadata.name}`, {
      method: 'DELETE',
      headers,
      body: options,
    });
    expect(dry.status).toBe(200);
    expect(api.get('v1', 'Secret', secret.metadata.name, 'default')).toBeDefined();
    const gone = await fetch(`${api.url}/api/v1/namespaces/default/secrets/${secret.metadata.name}`, {
      method: 'DELETE',
      headers,
      body: encodeObject({ apiVersion: 'v1', kind: 'DeleteOptions' }),
    });
    expect(decodeObject(Buffer.from(await gone.arrayBuffer()))).toMatchObject({
      kind: 'Status',
      status: 'Success',
    });
    expect(api.get('v1', 'Secret', secret.metadata.name, 'default')).toBeUndefined();
  });
});
