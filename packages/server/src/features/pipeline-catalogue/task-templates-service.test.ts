import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../platform/errors.js';
import { FakeTaskTemplatesStore } from './fake-task-templates-store.js';
import { TaskTemplatesService } from './task-templates-service.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const HELLO_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata: { name: hello }
spec:
  steps: [{ name: s, image: alpine, script: 'echo hello' }]
`;

describe('TaskTemplatesService over the fake store', () => {
  it('creates a template named by its Task; built-ins are visible, read-only and their names reserved', async () => {
    const store = new FakeTaskTemplatesStore();
    const service = new TaskTemplatesService(store);
    await store.insert({
      id: 'b1',
      workspaceId: null,
      name: 'git-clone',
      definition: HELLO_TASK.replace('hello', 'git-clone'),
      format: 'yaml',
      builtIn: true,
    });
    const own = await service.create(WS, { definition: HELLO_TASK });
    expect(own).toMatchObject({ name: 'hello', builtIn: false, version: 1 });
    expect((await service.list(WS)).map((t) => t.name)).toEqual(['hello', 'git-clone']);
    expect((await service.list(OTHER)).map((t) => t.name)).toEqual(['git-clone']);
    await expect(service.update(WS, 'b1', { description: 'x' })).rejects.toThrow(
      'Built-in task templates cannot be changed',
    );
    await expect(service.create(WS, { name: 'git-clone', definition: HELLO_TASK })).rejects.toThrow(
      '"git-clone" is the name of a built-in task template',
    );
    await expect(service.create(WS, { definition: HELLO_TASK })).rejects.toThrow(
      'A task template with this name already exists',
    );
    await expect(service.get(OTHER, own.id)).rejects.toThrow(new NotFoundError('Task template not found'));
  });

  it('a changed text is the next version; a template is exactly one valid Task or StepAction', async () => {
    const service = new TaskTemplatesService(new FakeTaskTemplatesStore());
    const t = await service.create(WS, { definition: HELLO_TASK });
    expect((await service.update(WS, t.id, { description: 'same text' })).version).toBe(1);
    expect(
      (await service.update(WS, t.id, { definition: HELLO_TASK.replace('echo hello', 'echo hi') })).version,
    ).toBe(2);
    await expect(
      service.create(WS, {
        definition: `${HELLO_TASK}---\n${HELLO_TASK.replace('name: hello', 'name: other')}`,
      }),
    ).rejects.toThrow('definition: a task template is exactly one Tekton Task or StepAction document');
  });
});
