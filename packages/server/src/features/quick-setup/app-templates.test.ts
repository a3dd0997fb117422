import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { buildahAvailable, buildahRequired } from '../../test-support/oci-registry.js';
import { hasKubernetesSchema, kubernetesSchemaProblem } from '../clusters/kubernetes-schemas.js';
import { BUILT_IN_TASKS } from '../pipeline-catalogue/built-in-tasks/index.js';
import { checkDefinition, parseDefinition, type Task } from '../pipelines/definition/index.js';
import {
  APP_TEMPLATES,
  describeTemplate,
  MANIFESTS_PATH,
  PIPELINE_PATH,
  renderFiles,
  type RenderOptions,
} from './app-templates.js';

const run = promisify(execFile);

/** The built-in tasks as the catalogue holds them. */
function builtInCatalogue(): Map<string, Task> {
  const tasks = new Map<string, Task>();
  for (const task of BUILT_IN_TASKS) {
    const parsed = parseDefinition(task.definition);
    if (!parsed.ok) throw new Error(`${task.name}: ${JSON.stringify(parsed.errors)}`);
    tasks.set(task.name, parsed.documents[0] as Task);
  }
  return tasks;
}

const has = async (binary: string) =>
  run('sh', ['-c', `command -v ${binary}`]).then(
    () => true,
    () => false,
  );

const OPTIONS: RenderOptions[] = [
  { name: 'shop', port: 8080, serviceType: 'ClusterIP', namespace: 'apps', gitSecret: 'shop-git' },
  { name: 'edge-2', port: 80, serviceType: 'NodePort', namespace: 'web' },
  { name: 'peers', port: 9000, serviceType: 'Headless', namespace: 'data' },
];

describe('app templates', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'slipway-templates-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('offers Node.js, Python, Go, Java and a static site, each listing a Dockerfile, manifests, a test and a pipeline', () => {
    expect(APP_TEMPLATES.map((t) => t.language)).toEqual(['javascript', 'python', 'go', 'java', 'html']);
    for (const template of APP_TEMPLATES) {
      const files = describeTemplate(template).files;
      expect(files).toEqual(
        expect.arrayContaining(['Dockerfile', MANIFESTS_PATH, PIPELINE_PATH, 'README.md']),
      );
      expect(
        files.some((f) => /test|check/i.test(f)),
        template.id,
      ).toBe(true);
      expect(template.files.Dockerfile).toMatch(/^ARG BASE_IMAGE=\S+/m);
      expect(template.files.Dockerfile).toContain('8080');
    }
  });

  it('every pipeline passes the definition validator against the built-in tasks', () => {
    const catalogue = builtInCatalogue();
    for (const template of APP_TEMPLATES)
      for (const options of OPTIONS) {
        const text = renderFiles(template, options)[PIPELINE_PATH]!.content as string;
        const checked = checkDefinition(text, catalogue);
        expect(checked.ok ? [] : checked.errors, `${template.id}/${options.name}`).toEqual([]);
        if (!checked.ok) continue;
        const pipeline = checked.documents[0]!;
        expect(pipeline.kind).toBe('Pipeline');
        if (pipeline.kind !== 'Pipeline') continue;
        expect(pipeline.spec.params?.map((p) => p.name)).toEqual([
          'git-url',
          'git-revision',
          'image',
          'base-image',
        ]);
        const tasks = pipeline.spec.tasks.map((t) => [t.name, t.taskRef?.name ?? 'inline', t.runAfter ?? []]);
        expect(tasks).toEqual([
          ['clone', 'git-clone', []],
          ['test', 'inline', ['clone']],
          ['build-and-push', 'buildah', ['test']],
          ['deploy', 'apply-yaml', ['build-and-push']],
        ]);
        const build = pipeline.spec.tasks[2]!.params!;
        expect(build).toContainEqual({ name: 'TLS_VERIFY', value: 'false' });
      }
  });

  it('every manifest is valid against the Kubernetes schemas and labels its objects with the app’s name', () => {
    for (const template of APP_TEMPLATES)
      for (const options of OPTIONS) {
        const text = renderFiles(template, options)[MANIFESTS_PATH]!.content as string;
        const docs = parseAllDocuments(text).map((d) => d.toJSON() as Record<string, unknown>);
        expect(docs.map((d) => d.kind)).toEqual(['Deployment', 'Service']);
        for (const doc of docs) {
          expect(hasKubernetesSchema(String(doc.apiVersion), String(doc.kind))).toBe(true);
          expect(kubernetesSchemaProblem(doc), `${template.id}/${options.name}`).toBeNull();
          expect(doc.metadata).toMatchObject({
            name: options.name,
            namespace: options.namespace,
            labels: { 'app.kubernetes.io/name': options.name },
          });
        }
        const service = docs[1] as { spec: { type: string; clusterIP?: string; ports: object[] } };
        expect(service.spec.ports).toEqual([{ name: 'http', port: options.port, targetPort: 'http' }]);
        if (options.serviceType === 'Headless') expect(service.spec.clusterIP).toBe('None');
      }
  });

  it('refuses a broken manifest: the schema check is real', () => {
    expect(
      kubernetesSchemaProblem({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'x' },
        spec: { ports: 'no' },
      }),
    ).not.toBeNull();
  });

  /** Runs a template's own test step where its toolchain is on this machine (no images are pulled here). */
  const runTest = async (id: string) => {
    const template = APP_TEMPLATES.find((t) => t.id === id)!;
    const dir = path.join(scratch, id);
    for (const [file, seed] of Object.entries(renderFiles(template, OPTIONS[0]!))) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), seed.content);
      if (seed.executable) chmodSync(path.join(dir, file), 0o755);
    }
    const { stdout, stderr } = await run('sh', ['-eu', '-c', template.test.script], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, TMPDIR: scratch },
    });
    return stdout + stderr;
  };

  it('the Node.js template’s test passes', { timeout: 30_000 }, async () => {
    expect(await runTest('nodejs')).toMatch(/pass 1/);
  });

  it('the Python template’s test passes', { timeout: 30_000 }, async (ctx) => {
    if (!(await has('python3'))) ctx.skip();
    const template = APP_TEMPLATES.find((t) => t.id === 'python')!;
    expect(template.test.script).toBe('python -m unittest -v');
    const dir = path.join(scratch, 'python-run');
    mkdirSync(dir, { recursive: true });
    for (const [file, content] of Object.entries(template.files))
      writeFileSync(path.join(dir, file), content);
    const { stderr } = await run('python3', ['-m', 'unittest', '-v'], { cwd: dir });
    expect(stderr).toMatch(/OK/);
  });

  it('the Java template’s check passes', { timeout: 60_000 }, async (ctx) => {
    if (!(await has('javac'))) ctx.skip();
    const template = APP_TEMPLATES.find((t) => t.id === 'java')!;
    const script = template.test.script.replaceAll('/tmp/classes', path.join(scratch, 'java-classes'));
    const dir = path.join(scratch, 'java');
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    for (const [file, content] of Object.entries(template.files))
      writeFileSync(path.join(dir, file), content);
    const { stdout } = await run('sh', ['-eu', '-c', script], { cwd: dir });
    expect(stdout).toContain('ok: the service greets');
  });

  it('the static site’s check passes', async () => {
    expect(await runTest('static-site')).toContain('ok: 1 page(s) checked');
  });

  /**
   * The Dockerfiles that need no RUN build with buildah over `scratch` in place of their base image
   * (which cannot be pulled here): their COPY sources, ARG, ENV, USER and CMD lines are right.
   */
  it.skipIf(!buildahAvailable && !buildahRequired)(
    'the single-stage Dockerfiles build with buildah',
    { timeout: 180_000 },
    async () => {
      const built: string[] = [];
      for (const template of APP_TEMPLATES) {
        if (/^RUN /m.test(template.files.Dockerfile!)) continue;
        const dir = path.join(scratch, `build-${template.id}`);
        for (const [file, seed] of Object.entries(renderFiles(template, OPTIONS[0]!))) {
          mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
          writeFileSync(path.join(dir, file), seed.content);
        }
        await run(
          'buildah',
          [
            ...[
              '--storage-driver',
              'vfs',
              '--root',
              path.join(scratch, 'root'),
              '--runroot',
              path.join(scratch, 'run'),
            ],
            ...[
              'bud',
              '--isolation',
              'chroot',
              '--build-arg',
              'BASE_IMAGE=scratch',
              '-t',
              `t/${template.id}`,
              dir,
            ],
          ],
          {
            env: { ...process.env, BUILDAH_ISOLATION: 'chroot', HOME: scratch },
            maxBuffer: 16 * 1024 * 1024,
          },
        );
        built.push(template.id);
      }
      expect(built).toEqual(['nodejs', 'python', 'static-site']);
    },
  );
});
