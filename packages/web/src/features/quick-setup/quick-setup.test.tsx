import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MESSAGES,
  type AppTemplate,
  type CallerPermissions,
  type QuickSetupRegistries,
  type QuickSetupRepository,
  type QuickSetupResult,
} from '@slipway/contracts';
import { quickSetup as ar } from '../../i18n/locales/ar/quick-setup';
import { quickSetup as en } from '../../i18n/locales/en/quick-setup';
import { quickSetup as fr } from '../../i18n/locales/fr/quick-setup';
import { quickSetup as hn } from '../../i18n/locales/hn/quick-setup';
import { quickSetup as ja } from '../../i18n/locales/ja/quick-setup';
import { renderApp } from '../../test/app';
import { emptyDashboard } from '../../test/applications-peer';
import { sampleEnvironment } from '../../test/clusters-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';

const ctx = withSignedInPeer();

const TEMPLATES: AppTemplate[] = [
  {
    id: 'nodejs',
    name: 'Node.js service',
    description: 'A tiny HTTP service on Node.js 20, tested with node --test',
    language: 'javascript',
    files: ['.tekton/pipeline.yaml', 'Dockerfile', 'app.js', 'k8s/app.yaml'],
    defaults: { port: 8080, serviceType: 'ClusterIP', namespace: 'apps', baseImage: 'node:20-alpine' },
  },
  {
    id: 'static-site',
    name: 'Static site',
    description: 'A static web site served by unprivileged nginx',
    language: 'html',
    files: ['Dockerfile', 'index.html', 'k8s/app.yaml'],
    defaults: { port: 80, serviceType: 'NodePort', namespace: 'web', baseImage: 'nginx:1.27-alpine' },
  },
];

const REPOSITORIES: QuickSetupRepository[] = [
  {
    kind: 'hosted',
    id: null,
    name: 'New hosted repository',
    description: 'A repository in Slipway named like the application',
    url: null,
    seeded: true,
  },
  {
    kind: 'existing',
    id: 'repo-1',
    name: 'orders',
    description: '',
    url: 'http://127.0.0.1:8080/git/ws-1/orders.git',
    seeded: false,
  },
];

const REGISTRIES: QuickSetupRegistries = {
  registries: [
    {
      id: 'slipway',
      kind: 'slipway',
      name: 'Slipway registry',
      description: 'The registry this server serves at /v2/',
      prefix: '127.0.0.1:8080/ws-1',
      insecure: true,
    },
  ],
  providers: [],
  note: 'Outside registry providers are not supported yet',
};

const RESULT: QuickSetupResult = {
  templateId: 'static-site',
  applicationId: 'app-9',
  repositoryId: 'repo-9',
  repositoryUrl: 'http://127.0.0.1:8080/git/ws-1/shop.git',
  commit: 'abcdef1234567890abcdef1234567890abcdef12',
  pipelineId: 'p-9',
  image: '127.0.0.1:8080/ws-1/shop',
  secrets: ['shop-git', 'docker-config'],
  runId: 'run-9',
  warnings: ['The deploy step needs a cluster: the first environment is not bound to one.'],
};

/**
 * The quick setup calls, answered here (the shared test peer does not know them) in front of the
 * peer, which answers the rest: `create` says what the create call answers, `created` records it.
 */
const quick = {
  create: (async () => [201, RESULT]) as () => Promise<[number, unknown]>,
  created: [] as Array<{ query: Record<string, string>; body: unknown }>,
  failTemplates: false,
};

let restoreFetch: () => void;
beforeEach(() => {
  ctx.peer.clusters.environments = [
    sampleEnvironment({ id: 'env-dev', name: 'development', type: 'development' }),
    sampleEnvironment({ id: 'env-stg', name: 'staging', type: 'staging' }),
  ];
  ctx.peer.applications.applications = [];
  quick.create = async () => [201, RESULT];
  quick.created = [];
  quick.failTemplates = false;
  const toPeer = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (req.method === 'GET' && url.pathname === '/api/admin/appaccelerator/types')
      return quick.failTemplates
        ? json(500, { statusCode: 500, error: 'Error', message: 'The database is away', requestId: 'req-1' })
        : json(200, TEMPLATES);
    if (req.method === 'GET' && url.pathname === '/api/admin/quicksetup/repositories')
      return json(200, REPOSITORIES);
    if (req.method === 'GET' && url.pathname === '/api/admin/quicksetup/registries')
      return json(200, REGISTRIES);
    if (req.method === 'POST' && url.pathname === '/api/admin/quicksetup/createonboardingresources') {
      quick.created.push({
        query: Object.fromEntries(url.searchParams),
        body: JSON.parse(await req.clone().text()) as unknown,
      });
      return json(...(await quick.create()));
    }
    return toPeer(input, init);
  }) as typeof fetch;
  restoreFetch = () => {
    globalThis.fetch = toPeer;
  };
});
afterEach(() => restoreFetch());

/** The signed-in user's grants become those of a role holding only `permissions`. */
function onlyMay(...permissions: CallerPermissions['workspace'][number]['permission'][]) {
  const userId = ctx.peer.sessions.get(ctx.token)!;
  ctx.peer.org.permissions.set(userId, {
    organisationRole: 'member',
    organisation: [{ permission: 'organisation:view' }],
    workspaceId: 'ws-1',
    workspaceRole: 'role-viewer',
    workspace: permissions.map((permission) => ({ permission })),
  });
}

const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const serviceType = () => screen.findByRole('combobox', { name: 'Service type' }, opts);

/** Names the application and picks the environments (the fields without a default). */
async function fillRequired(user: ReturnType<typeof userEvent.setup>, name: string, envs: string[]) {
  await user.type(field('Name'), name);
  await user.click(screen.getByRole('combobox', { name: 'Environments' }));
  for (const env of envs) await user.click(await screen.findByRole('option', { name: env }));
  await user.keyboard('{Escape}');
}

describe('quick setup', () => {
  it('lists the templates as cards, the first chosen with its defaults filled in', async () => {
    renderApp('/applications/quick-setup');
    const radios = (await screen.findAllByRole('radio', {}, opts)) as HTMLInputElement[];
    expect(radios.map((r) => r.checked)).toEqual([true, false]);
    expect(screen.getByRole('radio', { name: 'Node.js service' })).toBe(radios[0]);
    expect(screen.getByRole('radio', { name: 'Static site' })).toBe(radios[1]);
    const [node] = screen.getAllByTestId('quick-setup-template');
    expect(node!.textContent).toContain('A tiny HTTP service on Node.js 20');
    expect(node!.textContent).toContain('JavaScript');
    expect(
      within(node!)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(TEMPLATES[0]!.files);

    expect(await within(await serviceType()).findByText('ClusterIP', {}, opts)).toBeTruthy();
    expect(field('Port').value).toBe('8080');
    expect(field('Namespace').value).toBe('apps');
    expect(field('Registry').value).toBe('127.0.0.1:8080/ws-1');
    expect(screen.getByTestId('quick-setup-insecure').textContent).toContain('plain HTTP');
    // a new hosted repository is the default, and says it is seeded with the template's files
    const repository = screen.getByRole('combobox', { name: 'Repository' });
    expect(repository.textContent).toContain('New hosted repository');
    expect(screen.getByText(/seeds it with the template’s files/)).toBeTruthy();
    expect(document.title).toBe('Quick setup · Slipway');
  });

  it('changes the defaults with the template, keeping what the user changed', async () => {
    renderApp('/applications/quick-setup');
    const user = userEvent.setup();
    await screen.findAllByRole('radio', {}, opts);
    await within(await serviceType()).findByText('ClusterIP', {}, opts);
    await user.clear(field('Port'));
    await user.type(field('Port'), '9090');
    await user.click(screen.getByRole('radio', { name: 'Static site' }));
    expect((screen.getByRole('radio', { name: 'Static site' }) as HTMLInputElement).checked).toBe(true);
    expect((await serviceType()).textContent).toContain('NodePort');
    expect(field('Namespace').value).toBe('web');
    expect(field('Port').value).toBe('9090');
    await user.click(screen.getByRole('radio', { name: 'Node.js service' }));
    expect((await serviceType()).textContent).toContain('ClusterIP');
    expect(field('Namespace').value).toBe('apps');
    expect(field('Port').value).toBe('9090');
  });

  it('checks the fields first, then puts the server’s field error under its field with no banner repeating it', async () => {
    quick.create = async () => [
      400,
      {
        statusCode: 400,
        error: 'Bad Request',
        message: 'body.name: That name is reserved',
        requestId: 'req-1',
        details: [{ path: 'body.name', message: 'That name is reserved' }],
      },
    ];
    renderApp('/applications/quick-setup');
    const user = userEvent.setup();
    await screen.findAllByRole('radio', {}, opts);
    await screen.findByRole('combobox', { name: 'Environments' }, opts);
    await user.click(screen.getByRole('button', { name: 'Create and run' }));
    expect(await screen.findByText(MESSAGES.nameRequired, {}, opts)).toBeTruthy();
    expect(screen.getByText(MESSAGES.environmentRequired)).toBeTruthy();
    expect(quick.created).toHaveLength(0);

    await fillRequired(user, 'Shop', ['development']);
    await user.click(screen.getByRole('button', { name: 'Create and run' }));
    expect(await screen.findByText(MESSAGES.smallcaseOrNumbers, {}, opts)).toBeTruthy();
    expect(quick.created).toHaveLength(0);

    await user.clear(field('Name'));
    await user.type(field('Name'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Create and run' }));
    const message = await screen.findByText('That name is reserved', {}, opts);
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(field('Name').getAttribute('aria-describedby')).toBe(message.id);
    expect(screen.queryByTestId('form-error')).toBeNull();
    expect(screen.queryAllByRole('alert').filter((a) => a.textContent?.includes('reserved'))).toEqual([]);
    expect(quick.created).toHaveLength(1);
    expect(screen.queryByTestId('quick-setup-result')).toBeNull();

    // a name something else already has is the name's too
    quick.create = async () => [
      409,
      {
        statusCode: 409,
        error: 'Conflict',
        message: 'A repository named admin already exists',
        requestId: 'req-2',
      },
    ];
    await user.click(screen.getByRole('button', { name: 'Create and run' }));
    const taken = await screen.findByText('A repository named admin already exists', {}, opts);
    expect(field('Name').getAttribute('aria-describedby')).toBe(taken.id);
    expect(screen.queryByTestId('form-error')).toBeNull();
    expect(quick.created).toHaveLength(2);
  });

  it('sends the template and the details, shows progress meanwhile, then what was made', async () => {
    let answer!: () => void;
    quick.create = () =>
      new Promise((resolve) => {
        answer = () => resolve([201, RESULT]);
      });
    renderApp('/applications/quick-setup');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Static site' }, opts));
    await screen.findByRole('combobox', { name: 'Environments' }, opts);
    await fillRequired(user, 'shop', ['development', 'staging']);
    await user.type(field('Description'), 'The shop');
    await user.click(screen.getByRole('button', { name: 'Advanced' }));
    expect(field('Base image').getAttribute('placeholder')).toBe('nginx:1.27-alpine');
    await user.type(field('Base image'), 'mirror.example.com/nginx:1.27');
    await user.click(screen.getByRole('button', { name: 'Create and run' }));

    await waitFor(() => expect(quick.created).toHaveLength(1), opts);
    expect((screen.getByRole('button', { name: 'Create and run' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('quick-setup-progress').textContent).toContain('starting the first run');
    answer();

    const result = await screen.findByTestId('quick-setup-result', {}, opts);
    expect(quick.created[0]).toEqual({
      query: { id: 'static-site' },
      body: {
        name: 'shop',
        description: 'The shop',
        environmentIds: ['env-dev', 'env-stg'],
        repositoryId: null,
        serviceType: 'NodePort',
        port: 80,
        namespace: 'web',
        baseImage: 'mirror.example.com/nginx:1.27',
      },
    });
    const link = (name: string) => within(result).getByRole('link', { name }).getAttribute('href');
    expect(link('Open application')).toBe('/applications/app-9');
    expect(link('Open pipeline')).toBe('/pipelines/p-9');
    expect(link('View first run')).toBe('/pipelines/runs/run-9');
    expect(within(result).getByRole('heading', { level: 2 }).textContent).toBe(
      'shop is set up and its first run has started',
    );
    expect((within(result).getByRole('textbox', { name: 'Clone URL' }) as HTMLInputElement).value).toBe(
      RESULT.repositoryUrl,
    );
    expect(within(result).getByTestId('quick-setup-commit').textContent).toBe('Seed commit abcdef1');
    expect(result.textContent).toContain('127.0.0.1:8080/ws-1/shop');
    expect(result.textContent).toContain('shop-git');
    expect(result.textContent).toContain('docker-config');
    expect(
      within(result)
        .getAllByTestId('quick-setup-warning')
        .map((w) => w.textContent),
    ).toEqual(RESULT.warnings);
    // the clone URL names this machine: a cluster elsewhere could not clone from it
    expect(within(result).getByTestId('loopback-warning').textContent).toContain('127.0.0.1:8080');
  });

  it('uses an existing repository without seeding it', async () => {
    quick.create = async () => [
      201,
      { ...RESULT, templateId: 'nodejs', repositoryId: 'repo-1', commit: null },
    ];
    renderApp('/applications/quick-setup');
    const user = userEvent.setup();
    await screen.findAllByRole('radio', {}, opts);
    await screen.findByRole('combobox', { name: 'Environments' }, opts);
    await fillRequired(user, 'orders-api', ['staging']);
    await user.click(screen.getByRole('combobox', { name: 'Repository' }));
    await user.click(await screen.findByRole('option', { name: 'orders' }));
    expect(screen.getByText(/nothing is added to it/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create and run' }));
    const result = await screen.findByTestId('quick-setup-result', {}, opts);
    expect(quick.created[0]!.body).toMatchObject({ repositoryId: 'repo-1', environmentIds: ['env-stg'] });
    expect(quick.created[0]!.query).toEqual({ id: 'nodejs' });
    expect(within(result).getByTestId('quick-setup-commit').textContent).toContain('nothing was added');
  });

  it('says when the templates cannot be loaded, and retries', async () => {
    quick.failTemplates = true;
    renderApp('/applications/quick-setup');
    const error = await screen.findByTestId('load-error', {}, opts);
    expect(error.textContent).toContain('The app templates could not be loaded. The database is away');
    quick.failTemplates = false;
    await userEvent.setup().click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('radio', { name: 'Node.js service' }, opts)).toBeTruthy();
  });

  it('is offered next to New application and in the empty list', async () => {
    renderApp('/applications');
    await screen.findByText('No microservices yet', {}, opts);
    const links = await screen.findAllByRole('link', { name: 'Quick setup' }, opts);
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/applications/quick-setup',
      '/applications/quick-setup',
    ]);
    expect(within(screen.getByTestId('empty-state')).getByRole('link', { name: 'Quick setup' })).toBe(
      links[1],
    );
  });

  it('is on the dashboard’s getting-started card', async () => {
    ctx.peer.applications.dashboard = emptyDashboard();
    renderApp('/dashboard');
    const card = await screen.findByRole('region', { name: 'Getting started' }, opts);
    const link = await within(card).findByRole('link', { name: 'Quick setup' }, opts);
    expect(link.getAttribute('href')).toBe('/applications/quick-setup');
  });

  it('is not offered to someone who may not create applications, and its page is denied to them', async () => {
    onlyMay('applications:view', 'repositories:view', 'registries:view');
    ctx.peer.applications.dashboard = emptyDashboard();
    const view = renderApp('/applications');
    await screen.findByText('No microservices yet', {}, opts);
    // once the grants are in, New application is disabled ...
    await waitFor(
      () =>
        expect((screen.getByRole('button', { name: 'New application' }) as HTMLButtonElement).disabled).toBe(
          true,
        ),
      opts,
    );
    // ... and quick setup is not there at all
    expect(screen.queryByRole('link', { name: 'Quick setup' })).toBeNull();
    expect(screen.queryByTestId('quick-setup-entry')).toBeNull();
    view.unmount();

    renderApp('/applications/quick-setup');
    expect(await screen.findByTestId('access-denied', {}, opts)).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create and run' })).toBeNull();
  });

  it('is translated in every language, every key and placeholder of the English', () => {
    /** every key path with the placeholders its text names */
    const shape = (o: object, at = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'string'
          ? [`${at}${k} ${(v.match(/{{\w+}}/g) ?? []).sort().join(' ')}`]
          : shape(v as object, `${at}${k}.`),
      );
    for (const dictionary of [ar, fr, ja, hn]) expect(shape(dictionary)).toEqual(shape(en));
  });

  it('reads right to left in Arabic', async () => {
    const { i18n } = renderApp('/applications/quick-setup');
    await screen.findByRole('button', { name: 'Create and run' }, opts);
    await act(() => i18n.changeLanguage('ar'));
    expect(await screen.findByRole('button', { name: ar.form.submit }, opts)).toBeTruthy();
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(ar.title);
    // the templates keep their own names
    expect(screen.getByRole('radio', { name: 'Node.js service' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: ar.form.name })).toBeTruthy();
  });
});
