import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../platform/errors.js';
import { FakeRunLimitsStore } from './fake-run-limits-store.js';
import { RunLimitsService } from './run-limits-service.js';

const setup = () => {
  const store = new FakeRunLimitsStore();
  store.workspaces.set('ws-1', null);
  store.workspaces.set('ws-2', null);
  store.pipelines.set('pl-1', { workspaceId: 'ws-1', limit: null });
  store.pipelines.set('pl-2', { workspaceId: 'ws-2', limit: null });
  return { store, service: new RunLimitsService(store) };
};

describe('RunLimitsService', () => {
  it('answers the defaults (4 per workspace, 2 per pipeline) when none is set', async () => {
    const { service } = setup();
    expect(await service.workspace('ws-1', 'ws-1')).toEqual({
      maxRunsInProgress: null,
      defaultLimit: 4,
      effective: 4,
    });
    expect(await service.pipeline('ws-1', 'pl-1')).toEqual({
      maxRunsInProgress: null,
      defaultLimit: 2,
      effective: 2,
      workspaceLimit: 4,
    });
  });

  it("keeps a pipeline's limit above its workspace's, the workspace's in force", async () => {
    const { service, store } = setup();
    await service.setWorkspace('ws-1', 'ws-1', 3);
    expect(await service.setPipeline('ws-1', 'pl-1', 10)).toEqual({
      maxRunsInProgress: 10,
      defaultLimit: 2,
      effective: 3,
      workspaceLimit: 3,
    });
    expect(store.pipelines.get('pl-1')!.limit).toBe(10);
    // raising the workspace's lets the pipeline's own bind
    await service.setWorkspace('ws-1', 'ws-1', 20);
    expect((await service.pipeline('ws-1', 'pl-1')).effective).toBe(10);
    // a pipeline's below its workspace's default holds on its own
    await service.setWorkspace('ws-1', 'ws-1', null);
    await service.setPipeline('ws-1', 'pl-1', 1);
    expect(await service.pipeline('ws-1', 'pl-1')).toMatchObject({ effective: 1, workspaceLimit: 4 });
  });

  it('answers not found for another workspace and its pipelines, changing nothing', async () => {
    const { service, store } = setup();
    await expect(service.setWorkspace('ws-1', 'ws-2', 1)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.workspace('ws-1', 'ws-9')).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.setPipeline('ws-1', 'pl-2', 1)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.pipeline('ws-1', 'pl-9')).rejects.toBeInstanceOf(NotFoundError);
    expect(store.workspaces.get('ws-2')).toBeNull();
    expect(store.pipelines.get('pl-2')!.limit).toBeNull();
  });
});
