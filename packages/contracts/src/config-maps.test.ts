import { describe, expect, it } from 'vitest';
import {
  CONFIG_MAP_KEY_DOTS_MESSAGE,
  CONFIG_MAP_KEY_LENGTH_MESSAGE,
  CONFIG_MAP_KEY_RULE_MESSAGE,
  CONFIG_MAP_NAME_RULE_MESSAGE,
  CONFIG_MAP_SIZE_MESSAGE,
  configMapCreateSchema,
  configMapUpdateSchema,
} from './config-maps.js';
import { createPipelineRunSchema, WORKSPACE_ITEM_PATH_MESSAGE } from './pipeline-runs.js';

const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);

describe('config map contracts', () => {
  it('takes a Kubernetes object name and defaults data to empty', () => {
    expect(configMapCreateSchema.parse({ name: 'app.config-1' })).toEqual({ name: 'app.config-1', data: {} });
    for (const name of ['App', 'a..b', 'a.-b', '-a', 'a_b', 'a'.repeat(254)])
      expect(configMapCreateSchema.safeParse({ name }).success, name).toBe(false);
    expect(issues(configMapCreateSchema.safeParse({ name: 'a..b' }))).toEqual([
      ['name', CONFIG_MAP_NAME_RULE_MESSAGE],
    ]);
  });

  it('names each bad key and the rule it breaks', () => {
    const result = configMapCreateSchema.safeParse({
      name: 'app',
      data: { 'a b': 'x', '..': 'y', ['k'.repeat(254)]: 'z', 'good_KEY-1.conf': 'multi\nline' },
    });
    expect(issues(result)).toEqual([
      ['data.a b', CONFIG_MAP_KEY_RULE_MESSAGE],
      ['data...', CONFIG_MAP_KEY_DOTS_MESSAGE],
      [`data.${'k'.repeat(254)}`, CONFIG_MAP_KEY_LENGTH_MESSAGE],
    ]);
  });

  it('refuses more than 1 MiB of keys and values', () => {
    const ok = { a: 'x'.repeat(1_048_575) };
    expect(configMapUpdateSchema.safeParse({ data: ok }).success).toBe(true);
    expect(issues(configMapUpdateSchema.safeParse({ data: { ab: 'x'.repeat(1_048_575) } }))).toEqual([
      ['data', CONFIG_MAP_SIZE_MESSAGE],
    ]);
  });
});

describe('run workspace bindings', () => {
  const run = (workspaces: unknown[]) => createPipelineRunSchema.safeParse({ pipelineId: 'p', workspaces });

  it('accepts a config map binding with items, and keeps other kinds to name them later', () => {
    const parsed = run([
      { name: 'conf', configMap: { name: 'app', items: [{ key: 'a.conf', path: 'etc/a.conf' }] } },
      { name: 'cache', persistentVolumeClaim: { claimName: 'c' } },
      { name: 'scratch', emptyDir: {} },
    ]);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.workspaces[1]).toEqual({ name: 'cache', persistentVolumeClaim: { claimName: 'c' } });
  });

  it('refuses item paths that leave the workspace, and two kinds at once', () => {
    for (const path of ['/etc/passwd', '../x', 'a/../../x', 'a//b', './a'])
      expect(
        issues(run([{ name: 'c', configMap: { name: 'app', items: [{ key: 'k', path }] } }])),
        path,
      ).toEqual([['workspaces.0.configMap.items.0.path', WORKSPACE_ITEM_PATH_MESSAGE]]);
    expect(run([{ name: 'c', emptyDir: {}, configMap: { name: 'app' } }]).success).toBe(false);
  });
});
