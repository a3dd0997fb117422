import { describe, expect, it } from 'vitest';
import { parseDefinition, validateTask } from '../../pipelines/definition/index.js';
import { BUILT_IN_TASKS } from './index.js';

describe('built-in task templates', () => {
  it.each(BUILT_IN_TASKS.map((t) => [t.name, t.definition]))('%s is a valid Tekton v1 Task', (name, text) => {
    const parsed = parseDefinition(text);
    expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    if (!parsed.ok) return;
    expect(parsed.tasks).toHaveLength(1);
    const task = parsed.tasks[0]!;
    expect(task.metadata.name).toBe(name);
    const result = validateTask(task);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('git-clone takes url, revision main and depth 1, and reads a token secret', () => {
    const parsed = parseDefinition(BUILT_IN_TASKS.find((t) => t.name === 'git-clone')!.definition);
    if (!parsed.ok) throw new Error('invalid');
    const spec = parsed.tasks[0]!.spec;
    expect(spec.params?.map((p) => [p.name, p.default])).toEqual(
      expect.arrayContaining([
        ['url', undefined],
        ['revision', 'main'],
        ['depth', '1'],
      ]),
    );
    expect(spec.results?.map((r) => r.name)).toEqual(['commit', 'url']);
    expect(spec.workspaces?.map((w) => w.name)).toEqual(['output']);
    const env = spec.steps[0]!.env!.find((e) => e.name === 'GIT_TOKEN')!;
    expect(env.valueFrom?.secretKeyRef?.name).toBe('$(params.tokenSecret)');
    expect(spec.steps[0]!.script).toContain('checkout -q FETCH_HEAD');
  });

  it('buildah names the missing binary and uses vfs storage with chroot isolation', () => {
    const text = BUILT_IN_TASKS.find((t) => t.name === 'buildah')!.definition;
    expect(text).toContain('buildah is not installed on this host');
    expect(text).toContain('--storage-driver vfs');
    expect(text).toContain('--isolation chroot');
    expect(text).toContain('--digestfile');
  });
});
