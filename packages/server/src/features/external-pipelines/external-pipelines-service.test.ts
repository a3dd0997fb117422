import { describe, expect, it } from 'vitest';
import type { ExternalPipelineCreate } from '@slipway/contracts';
import { GitUrlPolicy } from '../../platform/git-url-policy.js';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { FakePipelinesStore } from '../pipeline-catalogue/fake-pipelines-store.js';
import { FakeTaskTemplatesStore } from '../pipeline-catalogue/fake-task-templates-store.js';
import { PipelinesService } from '../pipeline-catalogue/pipelines-service.js';
import { TaskTemplatesService } from '../pipeline-catalogue/task-templates-service.js';
import { ExternalPipelinesService, type TokenSource } from './external-pipelines-service.js';
import { FakeExternalPipelinesStore } from './fake-external-pipelines-store.js';
import { FakeGitFileSource } from './fake-git-file-source.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const URL = 'https://git.example.com/team/app.git';
const definition = (step = 'true') => `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: app }
spec:
  tasks:
    - name: t
      taskSpec: { steps: [{ name: s, image: alpine, script: '${step}' }] }
`;
const create = (over: Partial<ExternalPipelineCreate> = {}): ExternalPipelineCreate => ({
  name: 'app',
  source: { kind: 'git', url: URL, revision: 'main', path: '.tekton/pipeline.yaml' },
  ...over,
});

function setup() {
  const pipelinesStore = new FakePipelinesStore();
  const pipelines = new PipelinesService(
    pipelinesStore,
    new TaskTemplatesService(new FakeTaskTemplatesStore()),
  );
  const git = new FakeGitFileSource();
  git.put(URL, 'main', '.tekton/pipeline.yaml', definition());
  const secrets: TokenSource = {
    value: async (ws, name, key) => {
      if (ws === WS && name === 'git-token' && key === 'token') return 's3cret';
      throw new Error(`Secret "${name}" (key "${key}") not found`);
    },
    values: async () => null,
  };
  const clock = { now: new Date('2026-02-01T10:00:00Z') };
  const service = new ExternalPipelinesService(
    new FakeExternalPipelinesStore(pipelinesStore),
    pipelinesStore,
    pipelines,
    git,
    secrets,
    new GitUrlPolicy([], async () => ['203.0.113.10']),
    () => clock.now,
  );
  return { service, git, pipelinesStore, pipelines, clock };
}

describe('ExternalPipelinesService over the fake stores', () => {
  it('creates an external pipeline from its repository file, synced now at version 1', async () => {
    const { service, pipelines } = setup();
    const p = await service.create(WS, create(), 'u1');
    expect(p).toMatchObject({
      name: 'app',
      version: 1,
      source: { kind: 'git', url: URL, revision: 'main', path: '.tekton/pipeline.yaml', secret: null },
      lastSyncedAt: '2026-02-01T10:00:00.000Z',
      syncError: null,
    });
    expect((await pipelines.exportDefinition(WS, 'pipeline', p.id)).text).toBe(definition());
  });

  it('a source that does not read answers 400 naming the field', async () => {
    const { service } = setup();
    const at = async (source: Partial<ExternalPipelineCreate['source']>) =>
      service
        .create(WS, create({ source: { ...create().source, ...source } }), null)
        .catch((e: unknown) => e);
    expect(await at({ url: 'https://git.example.com/other.git' })).toMatchObject({
      details: [{ path: 'body.source.url' }],
    });
    expect(await at({ revision: 'nope' })).toMatchObject({ details: [{ path: 'body.source.revision' }] });
    expect(await at({ path: 'missing.yaml' })).toMatchObject({ details: [{ path: 'body.source.path' }] });
    expect(await at({ secret: 'unknown' })).toMatchObject({ details: [{ path: 'body.source.secret' }] });
    expect(await at({ url: 'https://git.example.com/other.git' })).toBeInstanceOf(InputError);
  });

  it('reads a private repository with the token of the named secret', async () => {
    const { service, git } = setup();
    const PRIVATE = 'https://git.example.com/team/private.git';
    git.put(PRIVATE, 'main', 'p.yaml', definition(), { token: 's3cret' });
    await service.create(
      WS,
      create({
        source: { kind: 'git', url: PRIVATE, revision: 'main', path: 'p.yaml', secret: 'git-token' },
      }),
      null,
    );
    expect(git.reads.at(-1)!.credentials).toEqual({ token: 's3cret' });
  });

  it('a file that is not a valid pipeline is refused without echoing it', async () => {
    const { service, git } = setup();
    git.put(URL, 'main', 'bad.yaml', 'password: [unclosed');
    const err = await service
      .create(WS, create({ source: { ...create().source, path: 'bad.yaml' } }), null)
      .catch((e) => e);
    expect((err as Error).message).toMatch(
      /^source\.path: bad\.yaml is not a valid pipeline: line \d+, column \d+: not valid YAML or JSON$/,
    );
    expect((err as Error).message).not.toContain('unclosed');
  });

  it('sync stores a new version only when the text changed; a failed sync keeps the last good one', async () => {
    const { service, git, clock } = setup();
    const p = await service.create(WS, create(), null);
    expect((await service.sync(WS, p.id, null)).outcome).toBe('unchanged');
    git.put(URL, 'main', '.tekton/pipeline.yaml', definition('echo 2'));
    clock.now = new Date('2026-02-02T10:00:00Z');
    const changed = await service.sync(WS, p.id, 'u2');
    expect(changed).toMatchObject({
      outcome: 'changed',
      pipeline: { version: 2, lastSyncedAt: '2026-02-02T10:00:00.000Z' },
    });
    git.put(URL, 'main', '.tekton/pipeline.yaml', 'kind: [');
    const failed = await service.sync(WS, p.id, null);
    expect(failed.outcome).toBe('failed');
    expect(failed.pipeline).toMatchObject({ version: 2, lastSyncedAt: '2026-02-02T10:00:00.000Z' });
    expect(failed.pipeline.syncError).toContain('is not a valid pipeline');
    const note = await service.beforeRun(WS, p.id);
    expect(note).toMatch(
      /^Sync failed \(the pipeline file is missing or not valid\), so this run uses version 2, last synced 2026-02-02T10:00:00.000Z: /,
    );
  });

  it('beforeRun says nothing for a pipeline defined in Slipway', async () => {
    const { service, pipelines } = setup();
    const own = await pipelines.create(WS, 'pipeline', { name: 'own', definition: definition() }, null);
    expect(await service.beforeRun(WS, own.id)).toBeUndefined();
    await expect(service.get(WS, own.id)).rejects.toThrow(new NotFoundError('External pipeline not found'));
  });

  it('names are shared with the workspace’s pipelines; other workspaces do not see it', async () => {
    const { service, pipelines } = setup();
    await pipelines.create(WS, 'pipeline', { name: 'taken', definition: definition() }, null);
    await expect(service.create(WS, create({ name: 'TAKEN' }), null)).rejects.toThrow(
      new ConflictError('A pipeline with this name already exists'),
    );
    const p = await service.create(WS, create(), null);
    await expect(service.update(WS, p.id, { name: 'Taken' }, null)).rejects.toBeInstanceOf(ConflictError);
    await expect(service.get(OTHER, p.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.sync(OTHER, p.id, null)).rejects.toBeInstanceOf(NotFoundError);
    expect((await service.list(OTHER, { _start: 0, _end: 10, _sort: 'name', _order: 'ASC' })).total).toBe(0);
    expect(
      (await service.list(WS, { _start: 0, _end: 10, _sort: 'name', _order: 'ASC' })).rows.map((r) => r.name),
    ).toEqual(['app']);
  });

  it('re-pointing the source reads the new file; the same source does not', async () => {
    const { service, git } = setup();
    git.put(URL, 'release', '.tekton/pipeline.yaml', definition('echo release'));
    const p = await service.create(WS, create(), null);
    const reads = git.reads.length;
    await service.update(WS, p.id, { source: create().source }, null);
    expect(git.reads.length).toBe(reads);
    const moved = await service.update(
      WS,
      p.id,
      { source: { ...create().source, revision: 'release' } },
      null,
    );
    expect(moved).toMatchObject({ version: 2, source: { revision: 'release' } });
    await service.remove(WS, p.id);
    await expect(service.get(WS, p.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
