import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import examples from '@octokit/webhooks-examples';
import {
  TOTAL_COUNT_HEADER,
  type PipelineRunDetail,
  type WebhookDelivery,
  type WebhookWithSecret,
} from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { sign } from './webhook-signature.js';

export const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const githubExamples = (name: string) => {
  const found = (examples as unknown as Array<{ name: string; examples: unknown[] }>).find(
    (e) => e.name === name,
  );
  if (!found) throw new Error(`no ${name} examples`);
  return found.examples as Array<Record<string, unknown>>;
};
const pushes = githubExamples('push');
export const branchPush = JSON.stringify(pushes.find((p) => p.ref === 'refs/heads/master' && !p.deleted));
export const tagPush = JSON.stringify(
  pushes.find((p) => String(p.ref).startsWith('refs/tags/') && !p.deleted),
);
export const deletedPush = JSON.stringify({
  ...pushes.find((p) => p.ref === 'refs/heads/master'),
  deleted: true,
  after: '0'.repeat(40),
});
const prs = githubExamples('pull_request');
export const prOpened = JSON.stringify(prs.find((p) => p.action === 'opened'));
export const prClosed = JSON.stringify(prs.find((p) => p.action === 'closed'));
export const ping = JSON.stringify(githubExamples('ping')[0]);

/** A pasted Tekton pipeline that declares three of the four git-* params. */
export const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: build }
spec:
  params:
    - name: git-url
    - name: git-revision
    - name: git-branch
      default: none
  tasks:
    - name: show
      params:
        - { name: rev, value: $(params.git-revision) }
        - { name: url, value: $(params.git-url) }
      taskSpec:
        params: [{ name: rev }, { name: url }]
        steps:
          - name: echo
            image: alpine
            script: 'echo built $(params.url) at $(params.rev)'
`;
export const NEEDS_IMAGE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: needs-image }
spec:
  params: [{ name: image }]
  tasks:
    - name: t
      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }
`;

interface HarnessState {
  t: TestApp;
  owner: TestUser;
  stranger: TestUser;
  pipelineId: string;
  needsImageId: string;
}

/**
 * One app per test file with an owner, a stranger from another organisation, and two pipelines
 * (one declaring git-url/revision/branch, one needing an image param); and the calls the webhook
 * tests make. Call it inside a describe: it adds the beforeAll and afterAll.
 */
export function webhooksHarness() {
  const w = {} as HarnessState;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: object) =>
    w.t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const create = async (body: object) => {
    const res = await call('POST', '/api/webhooks', w.owner, { pipelineId: w.pipelineId, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as WebhookWithSecret;
  };
  const deliver = (
    id: string,
    headers: Record<string, string>,
    body: string,
    contentType = 'application/json',
  ) =>
    w.t.app.inject({
      method: 'POST',
      url: `/api/hooks/${id}`,
      headers: { 'content-type': contentType, ...headers },
      payload: body,
    });
  const github = (hook: WebhookWithSecret, event: string, body: string, secret = hook.secret) =>
    deliver(
      hook.id,
      {
        'x-github-event': event,
        'x-github-delivery': `d-${Math.random()}`,
        'x-hub-signature-256': sign(secret, body),
      },
      body,
    );
  const deliveries = async (id: string, query = '') => {
    const res = await call('GET', `/api/webhooks/${id}/deliveries${query}`, w.owner);
    expect(res.statusCode, res.body).toBe(200);
    return {
      rows: res.json() as WebhookDelivery[],
      total: Number(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]),
    };
  };
  const run = async (id: string) =>
    (await call('GET', `/api/pipelineruns/${id}`, w.owner)).json() as PipelineRunDetail;
  const runCount = async () =>
    Number((await call('GET', '/api/pipelineruns', w.owner)).headers[TOTAL_COUNT_HEADER.toLowerCase()]);

  beforeAll(async () => {
    w.t = await createTestApp();
    w.owner = await createSignedInUser(w.t.app, w.t.db.database);
    w.stranger = await createSignedInUser(w.t.app, w.t.db.database);
    const made = await call('POST', '/api/pipelines', w.owner, { name: 'build', definition: PIPELINE });
    expect(made.statusCode, made.body).toBe(201);
    w.pipelineId = made.json().id;
    w.needsImageId = (
      await call('POST', '/api/pipelines', w.owner, { name: 'needs-image', definition: NEEDS_IMAGE })
    ).json().id;
  });
  afterAll(async () => {
    await w.t.close();
  });
  return Object.assign(w, { call, create, deliver, github, deliveries, run, runCount });
}
