import { describe, expect, it } from 'vitest';
import type { PipelineListQuery } from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { FakePipelinesStore } from './fake-pipelines-store.js';
import { FakeTaskTemplatesStore } from './fake-task-templates-store.js';
import { PipelinesService } from './pipelines-service.js';
import { TaskTemplatesService } from './task-templates-service.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const pipeline = (name: string, taskRef = '') => `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: ${name} }
spec:
  tasks:
    - name: t
${taskRef ? `      taskRef: { name: ${taskRef} }` : "      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }"}
`;
const HELLO_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata: { name: hello }
spec:
  steps: [{ name: s, image: alpine, script: 'echo hello' }]
`;
const query = (q: Partial<PipelineListQuery> = {}): PipelineListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

function setup() {
  const store = new FakePipelinesStore();
  const templates = new TaskTemplatesService(new FakeTaskTemplatesStore());
  return { store, templates, service: new PipelinesService(store, templates) };
}

describe('PipelinesService over the fake stores', () => {
  it('creates a pipeline at version 1 and stores each changed definition as the next version', async () => {
    const { service } = setup();
    const created = await service.create(
      WS,
      'pipeline',
      { name: 'build', definition: pipeline('build') },
      'u1',
    );
    expect(created).toMatchObject({
      kind: 'pipeline',
      version: 1,
      format: 'yaml',
      source: null,
      description: '',
    });
    const updated = await service.update(
      WS,
      'pipeline',
      created.id,
      { definition: pipeline('build-2') },
      'u2',
    );
    expect(updated.version).toBe(2);
    expect(updated.versions.map((v) => [v.version, v.createdBy])).toEqual([
      [2, 'u2'],
      [1, 'u1'],
    ]);
    expect((await service.version(WS, 'pipeline', created.id, 1)).definition).toBe(pipeline('build'));
    await expect(service.version(WS, 'pipeline', created.id, 7)).rejects.toThrow(
      new NotFoundError('Version 7 of this pipeline not found'),
    );
    expect(await service.exportDefinition(WS, 'pipeline', created.id)).toEqual({
      name: 'build',
      text: pipeline('build-2'),
      format: 'yaml',
    });
  });

  it('validates the definition against the workspace’s task catalogue, naming the path', async () => {
    const { service, templates } = setup();
    const err = await service
      .create(WS, 'pipeline', { name: 'p', definition: pipeline('p', 'hello') }, null)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toContain('spec.tasks[0].taskRef');
    await templates.create(WS, { definition: HELLO_TASK });
    await expect(
      service.create(WS, 'pipeline', { name: 'p', definition: pipeline('p', 'hello') }, null),
    ).resolves.toBeTruthy();
    await expect(
      service.create(OTHER, 'pipeline', { name: 'p', definition: pipeline('p', 'hello') }, null),
    ).rejects.toBeInstanceOf(InputError);
  });

  it('names are unique per kind in a workspace, ignoring case; the index catches a race', async () => {
    const { service, store } = setup();
    await service.create(WS, 'pipeline', { name: 'Build', definition: pipeline('b') }, null);
    await expect(
      service.create(WS, 'pipeline', { name: 'build', definition: pipeline('b') }, null),
    ).rejects.toThrow(new ConflictError('A pipeline with this name already exists'));
    await expect(
      service.create(WS, 'template', { name: 'build', definition: pipeline('b') }, null),
    ).resolves.toBeTruthy();
    await expect(
      service.create(WS, 'template', { name: 'build', definition: pipeline('b') }, null),
    ).rejects.toThrow('A pipeline template with this name already exists');
    store.nameTaken = async () => false;
    await expect(
      service.create(WS, 'pipeline', { name: 'Build', definition: pipeline('b') }, null),
    ).rejects.toThrow('A pipeline with this name already exists');
  });

  it('a rollback pipeline is another pipeline of the workspace', async () => {
    const { service } = setup();
    const a = await service.create(WS, 'pipeline', { name: 'a', definition: pipeline('a') }, null);
    const theirs = await service.create(OTHER, 'pipeline', { name: 'x', definition: pipeline('x') }, null);
    await expect(
      service.create(
        WS,
        'pipeline',
        { name: 'b', definition: pipeline('b'), rollbackPipelineId: theirs.id },
        null,
      ),
    ).rejects.toMatchObject({ details: [{ path: 'body.rollbackPipelineId' }] });
    await expect(service.update(WS, 'pipeline', a.id, { rollbackPipelineId: a.id }, null)).rejects.toThrow(
      'rollbackPipelineId: a pipeline cannot roll back to itself',
    );
    const b = await service.create(
      WS,
      'pipeline',
      { name: 'b', definition: pipeline('b'), rollbackPipelineId: a.id },
      null,
    );
    expect(b.rollbackPipelineId).toBe(a.id);
  });

  it('an external pipeline’s definition changes only in its repository', async () => {
    const { service, store } = setup();
    const p = await service.create(WS, 'pipeline', { name: 'ext', definition: pipeline('e') }, null);
    await store.update(p.id, {
      source: { kind: 'git', url: 'https://git.example.com/r.git', revision: 'main', path: 'p.yaml' },
    });
    await expect(
      service.update(WS, 'pipeline', p.id, { definition: pipeline('f') }, null),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await service.update(WS, 'pipeline', p.id, { description: 'ok' }, null)).source).toMatchObject({
      kind: 'git',
      path: 'p.yaml',
      secret: null,
    });
  });

  it('refuses to delete a pipeline with an active run; kinds and workspaces do not mix', async () => {
    const { service, store } = setup();
    const p = await service.create(WS, 'pipeline', { name: 'p', definition: pipeline('p') }, null);
    store.startRun(p.id);
    await expect(service.remove(WS, 'pipeline', p.id)).rejects.toThrow(
      new ConflictError('This pipeline has a run pending or in progress: abort it or wait for it to end'),
    );
    store.endRun(p.id);
    await expect(service.remove(WS, 'template', p.id)).rejects.toThrow(
      new NotFoundError('Pipeline template not found'),
    );
    await expect(service.remove(OTHER, 'pipeline', p.id)).rejects.toThrow(
      new NotFoundError('Pipeline not found'),
    );
    await service.remove(WS, 'pipeline', p.id);
    await expect(service.get(WS, 'pipeline', p.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('instantiates a pipeline from a template, and lists each kind apart', async () => {
    const { service } = setup();
    const t = await service.create(
      WS,
      'template',
      { name: 'tpl', description: 'd', definition: pipeline('t') },
      null,
    );
    const p = await service.instantiate(WS, t.id, 'from-tpl', 'u1');
    expect(p).toMatchObject({
      kind: 'pipeline',
      name: 'from-tpl',
      description: 'd',
      definition: pipeline('t'),
    });
    expect((await service.list(WS, 'pipeline', query())).rows.map((r) => r.name)).toEqual(['from-tpl']);
    expect((await service.list(WS, 'template', query({ name: 'TP' }))).total).toBe(1);
  });
});
