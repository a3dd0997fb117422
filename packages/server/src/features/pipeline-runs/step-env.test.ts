import { describe, expect, it } from 'vitest';
import type { ResolvedStep, ResolvedTaskRun } from '../pipelines/definition/index.js';
import { foldStepEnv, needsStepEnv, type StepEnvSources } from './step-env.js';

const step = (patch: Partial<ResolvedStep>): ResolvedStep => ({
  name: 'show',
  image: 'alpine',
  env: {},
  secretEnv: [],
  onError: 'stopAndFail',
  ...patch,
});
const run = (...steps: ResolvedStep[]): ResolvedTaskRun => ({
  name: 't',
  params: {},
  steps,
  resultsDir: '/r',
  results: [],
  workspaces: {},
  retries: 0,
});

const CONFIG_MAPS: Record<string, Record<string, string>> = {
  app: { greeting: 'hello', level: 'debug' },
  other: { level: 'info', extra: 'x' },
};
const SECRETS: Record<string, Record<string, string>> = { creds: { token: 't0k3n', user: 'bot' } };
const sources: StepEnvSources = {
  configMap: async (name) => CONFIG_MAPS[name] ?? null,
  secret: async (name) => SECRETS[name] ?? null,
};

describe('foldStepEnv', () => {
  it('leaves a task run without config map env or envFrom as it is', async () => {
    const plain = run(step({ env: { A: '1' } }));
    expect(needsStepEnv(plain)).toBe(false);
    expect(await foldStepEnv(plain, sources)).toBe(plain);
  });

  it('folds configMapKeyRef into env and envFrom into env and secretEnv, env winning', async () => {
    const folded = await foldStepEnv(
      run(
        step({
          env: { level: 'explicit' },
          secretEnv: [{ name: 'APP_user', secret: 'other-secret', key: 'u' }],
          configMapEnv: [
            { name: 'GREETING', configMap: 'app', key: 'greeting' },
            { name: 'GONE', configMap: 'app', key: 'nope', optional: true },
            { name: 'ALSO_GONE', configMap: 'nope', key: 'k', optional: true },
          ],
          envFrom: [
            { kind: 'configMap', name: 'app' },
            { kind: 'configMap', name: 'other' },
            { kind: 'secret', name: 'creds', prefix: 'APP_' },
            { kind: 'configMap', name: 'missing', optional: true },
            { kind: 'secret', name: 'missing', optional: true },
          ],
        }),
      ),
      sources,
    );
    const [s] = folded.steps;
    expect(s).not.toHaveProperty('configMapEnv');
    expect(s).not.toHaveProperty('envFrom');
    expect(s!.env).toEqual({ greeting: 'hello', level: 'explicit', extra: 'x', GREETING: 'hello' });
    expect(s!.secretEnv).toEqual([
      { name: 'APP_token', secret: 'creds', key: 'token' },
      { name: 'APP_user', secret: 'other-secret', key: 'u' },
    ]);
  });

  it('lets a later envFrom source win over an earlier one, across kinds', async () => {
    const folded = await foldStepEnv(
      run(
        step({
          envFrom: [
            { kind: 'secret', name: 'creds' },
            { kind: 'configMap', name: 'app', prefix: 'to' },
          ],
        }),
      ),
      { ...sources, configMap: async () => ({ ken: 'plain' }) },
    );
    expect(folded.steps[0]!.env).toEqual({ token: 'plain' });
    expect(folded.steps[0]!.secretEnv).toEqual([{ name: 'user', secret: 'creds', key: 'user' }]);
  });

  it('names the step, variable and config map that are missing', async () => {
    const missing = (patch: Partial<ResolvedStep>) => foldStepEnv(run(step(patch)), sources);
    await expect(missing({ configMapEnv: [{ name: 'G', configMap: 'nope', key: 'k' }] })).rejects.toThrow(
      'step "show": config map "nope" (key "k") for G could not be read: config map "nope" not found',
    );
    await expect(missing({ configMapEnv: [{ name: 'G', configMap: 'app', key: 'k' }] })).rejects.toThrow(
      'step "show": config map "app" (key "k") for G could not be read: config map "app" has no key "k"',
    );
    await expect(missing({ envFrom: [{ kind: 'configMap', name: 'nope' }] })).rejects.toThrow(
      'step "show": config map "nope" (envFrom) not found',
    );
    await expect(missing({ envFrom: [{ kind: 'secret', name: 'nope' }] })).rejects.toThrow(
      'step "show": secret "nope" (envFrom) not found',
    );
  });

  it("folds a sidecar's envFrom and configMapKeyRef as a step's (issue 14: none is dropped)", async () => {
    const sidecar = {
      ...step({
        name: 'db',
        envFrom: [
          { kind: 'configMap' as const, name: 'app', prefix: 'DB_' },
          { kind: 'secret' as const, name: 'creds' },
        ],
        configMapEnv: [{ name: 'LEVEL', configMap: 'other', key: 'level' }],
      }),
      readiness: { tcpPort: 5432 },
    };
    const folded = await foldStepEnv({ ...run(step({})), sidecars: [sidecar] }, sources);
    expect(needsStepEnv({ ...run(step({})), sidecars: [sidecar] })).toBe(true);
    expect(folded.sidecars![0]).toMatchObject({
      name: 'db',
      readiness: { tcpPort: 5432 },
      env: { DB_greeting: 'hello', DB_level: 'debug', LEVEL: 'info' },
      secretEnv: [
        { name: 'token', secret: 'creds', key: 'token' },
        { name: 'user', secret: 'creds', key: 'user' },
      ],
    });
    expect(folded.sidecars![0]!.envFrom).toBeUndefined();
  });
});
