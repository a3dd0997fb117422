import {
  PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS,
  pipelineListQuerySchema,
  repositoryListQuerySchema,
  type QuickSetupCreateInput,
  type QuickSetupRegistries,
  type QuickSetupRepository,
  type QuickSetupResult,
  type RepositoryDetail,
} from '@slipway/contracts';
import { InputError, NotFoundError } from '../../platform/errors.js';
import { GitUrlRefused, type GitUrlPolicy } from '../../platform/git-url-policy.js';
import type { ApplicationsService } from '../applications/applications-service.js';
import type { PipelinesService } from '../pipeline-catalogue/pipelines-service.js';
import type { EnvironmentTarget } from '../pipelines/executor/kubernetes-executor-resolver.js';
import type { PipelineRunsService } from '../pipeline-runs/pipeline-runs-service.js';
import type { HostedGit } from '../repositories/hosted-git.js';
import type { RepositoriesService } from '../repositories/repositories-service.js';
import type { SecretsService } from '../secrets/secrets-service.js';
import type { ServiceAccountsService } from '../service-accounts/service-accounts-service.js';
import {
  APP_TEMPLATES,
  describeTemplate,
  findTemplate,
  PULL_SECRET,
  renderFiles,
  TEMPLATE_DEFAULTS,
  pipelineText,
  type RenderOptions,
} from './app-templates.js';

/** The workspace secret the run engine and buildah read registry credentials from. */
export const REGISTRY_SECRET = 'docker-config';
export { PULL_SECRET };
/** how long the credentials quick setup makes last: just under the service accounts' year */
const CREDENTIAL_DAYS = 364;
const DAY_MS = 86_400_000;
const TEMPLATE_NOT_FOUND = 'App template not found';
const COMMIT_AUTHOR = { name: 'Slipway quick setup', email: 'quick-setup@slipway.invalid' };

/** Who asks: the person (or service account) and their organisation. */
export interface QuickSetupCaller {
  actorId: string | null;
  organisationId: string;
}

/** What quick setup uses of other features: each through its exported service. */
export interface QuickSetupLinks {
  repositories: Pick<
    RepositoriesService,
    'create' | 'remove' | 'get' | 'list' | 'createToken' | 'revokeToken'
  >;
  git: Pick<HostedGit, 'commit'>;
  /** `<host>/<workspace id>`: where the workspace's images go in Slipway's registry */
  registryPrefix(workspaceId: string): string;
  /** whether Slipway is served over plain HTTP (pushing needs TLS verification off) */
  insecureRegistry: boolean;
  secrets: Pick<SecretsService, 'create' | 'remove' | 'list'>;
  serviceAccounts: Pick<ServiceAccountsService, 'create' | 'revoke'>;
  pipelines: Pick<PipelinesService, 'create' | 'remove'>;
  applications: Pick<ApplicationsService, 'create' | 'remove'>;
  runs: Pick<PipelineRunsService, 'create'>;
  /** SLIPWAY_GIT_ALLOW: whether the git-clone task may fetch the repository */
  gitPolicy: Pick<GitUrlPolicy, 'check'>;
  /** the cluster and namespace an environment deploys to, if it is bound to one */
  environmentTarget?: EnvironmentTarget;
}

/**
 * Quick setup: from an app template, a hosted repository seeded with its files (one commit), the
 * credentials its pipeline needs (a read deploy token for the clone; `docker-config` for the
 * registry when the workspace has none), the pipeline, the application, and its first run. Made
 * as one unit: when a step fails, what the earlier ones made is removed, last first.
 */
export class QuickSetupService {
  constructor(private readonly links: QuickSetupLinks) {}

  templates() {
    return APP_TEMPLATES.map(describeTemplate);
  }

  /** A new hosted repository, then the workspace's repositories (the first 100 by name). */
  async repositories(workspaceId: string): Promise<QuickSetupRepository[]> {
    const { rows } = await this.links.repositories.list(
      workspaceId,
      repositoryListQuerySchema.parse({ _end: 100, _sort: 'name' }),
    );
    return [
      {
        kind: 'hosted',
        id: null,
        name: 'New hosted repository',
        description: 'Slipway hosts a new repository named like the application, seeded with the template',
        url: null,
        seeded: true,
      },
      ...rows.map((r) => ({
        kind: 'existing' as const,
        id: r.id,
        name: r.name,
        description: r.description,
        url: r.url,
        seeded: false,
      })),
    ];
  }

  registries(workspaceId: string): QuickSetupRegistries {
    return {
      registries: [
        {
          id: 'slipway',
          kind: 'slipway',
          name: 'Slipway registry',
          description: 'The registry this server serves at /v2/; needs no account',
          prefix: this.links.registryPrefix(workspaceId),
          insecure: this.links.insecureRegistry,
        },
      ],
      providers: [],
      note: 'Outside registry providers are not supported yet: quick setup pushes to Slipway’s registry',
    };
  }

  async create(
    workspaceId: string,
    templateId: string,
    input: QuickSetupCreateInput,
    caller: QuickSetupCaller,
  ): Promise<QuickSetupResult> {
    const template = findTemplate(templateId);
    if (!template) throw new NotFoundError(TEMPLATE_NOT_FOUND);
    const { links } = this;
    const undo: Array<() => Promise<unknown>> = [];
    const made = <T>(value: T, remove: (value: T) => Promise<unknown>) => {
      undo.push(() => remove(value));
      return value;
    };
    const options: RenderOptions = {
      name: input.name,
      port: input.port ?? TEMPLATE_DEFAULTS.port,
      serviceType: input.serviceType ?? TEMPLATE_DEFAULTS.serviceType,
      namespace: input.namespace ?? TEMPLATE_DEFAULTS.namespace,
      ...(input.baseImage ? { baseImage: input.baseImage } : {}),
    };
    try {
      // the repository: a new hosted one seeded with the template, or the one named
      let repository: RepositoryDetail;
      let commit: string | null = null;
      if (input.repositoryId) {
        repository = await this.existingRepository(workspaceId, input.repositoryId);
      } else {
        repository = made(
          await links.repositories.create(
            workspaceId,
            { name: input.name, description: input.description, kind: 'hosted', defaultBranch: 'main' },
            caller.actorId,
          ),
          (r) => links.repositories.remove(workspaceId, r.id),
        );
      }
      const secrets: string[] = [];
      // a hosted repository is cloned with a read deploy token kept in a secret the pipeline names
      if (repository.kind === 'hosted') {
        options.gitSecret = `${input.name}-git`;
        const token = made(
          await links.repositories.createToken(
            workspaceId,
            repository.id,
            { name: `quick setup: ${input.name}`, access: 'read', expiresInDays: CREDENTIAL_DAYS },
            caller.actorId,
          ),
          (t) => links.repositories.revokeToken(workspaceId, repository.id, t.id),
        );
        made(
          await links.secrets.create(
            workspaceId,
            {
              name: options.gitSecret,
              description: `Clones ${repository.name} (a read deploy token)`,
              type: 'git',
              global: true,
              values: { token: token.token },
            },
            caller.actorId,
          ),
          (s) => links.secrets.remove(workspaceId, s.id),
        );
        secrets.push(options.gitSecret);
      }
      if (!input.repositoryId) {
        commit = await links.git.commit(
          workspaceId,
          repository.name,
          repository.defaultBranch,
          renderFiles(template, options),
          `Start ${input.name} from the ${template.name} template`,
          COMMIT_AUTHOR,
        );
      }
      for (const [name, role, what] of [
        [REGISTRY_SECRET, 'developer', 'Pushes and pulls'],
        // a cluster gets credentials that can only pull
        [PULL_SECRET, 'viewer', 'Pulls'],
      ] as const) {
        if (!(await this.secretMissing(workspaceId, name))) continue;
        await this.makeRegistrySecret(workspaceId, caller, made, { name, role, what });
        secrets.push(name);
      }
      const pipeline = made(
        await links.pipelines.create(
          workspaceId,
          'pipeline',
          {
            name: input.name,
            description: `Clone, test, build and push, and deploy ${input.name}`,
            definition: pipelineText(template, options),
          },
          caller.actorId,
        ),
        (p) => links.pipelines.remove(workspaceId, 'pipeline', p.id),
      );
      const image = `${links.registryPrefix(workspaceId)}/${input.name}`;
      const application = made(
        await links.applications.create(
          workspaceId,
          {
            name: input.name,
            description: input.description,
            repositoryId: repository.id,
            branch: repository.defaultBranch,
            image,
            pipelineId: pipeline.id,
            serviceType: options.serviceType,
            port: options.port,
            namespace: options.namespace,
            environmentIds: input.environmentIds,
            serviceUrl: null,
          },
          caller.actorId,
        ),
        (a) => links.applications.remove(workspaceId, a.id),
      );
      const revision = commit ?? repository.defaultBranch;
      const trigger = {
        kind: 'quick-setup',
        id: application.id,
        commit: revision,
        branch: repository.defaultBranch,
        author: COMMIT_AUTHOR.name,
      };
      const run = await links.runs.create(
        workspaceId,
        {
          pipelineId: pipeline.id,
          params: {
            'git-url': repository.url,
            'git-revision': revision,
            image: `${image}:${commit ? commit.slice(0, 12) : 'latest'}`,
          },
          timeoutHours: PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS,
          workspaces: [],
          environmentId: input.environmentIds[0],
        },
        trigger,
      );
      return {
        templateId: template.id,
        applicationId: application.id,
        repositoryId: repository.id,
        repositoryUrl: repository.url,
        commit,
        pipelineId: pipeline.id,
        image,
        secrets,
        runId: run.id,
        warnings: await this.warnings(repository.url, input.environmentIds[0]!),
      };
    } catch (err) {
      for (const step of undo.reverse()) await step().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Why the first run may stop on this server: the clone URL refused by SLIPWAY_GIT_ALLOW, or a
   * first environment bound to no cluster (the deploy step has nowhere to apply).
   */
  private async warnings(cloneUrl: string, environmentId: string): Promise<string[]> {
    const warnings: string[] = [];
    try {
      await this.links.gitPolicy.check(cloneUrl);
    } catch (err) {
      if (!(err instanceof GitUrlRefused)) throw err;
      warnings.push(`The clone step will refuse ${cloneUrl}: ${err.message}`);
    }
    if (this.links.environmentTarget && !(await this.links.environmentTarget(environmentId)))
      warnings.push(
        'The deploy step needs a cluster: the first environment is not bound to one. Attach a cluster, bind the environment to it and run the pipeline again.',
      );
    return warnings;
  }

  private async existingRepository(workspaceId: string, id: string): Promise<RepositoryDetail> {
    try {
      return await this.links.repositories.get(workspaceId, id);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      const message = 'no such repository in this workspace';
      throw new InputError(`repositoryId: ${message}`, [{ path: 'body.repositoryId', message }]);
    }
  }

  private async secretMissing(workspaceId: string, name: string): Promise<boolean> {
    const { rows } = await this.links.secrets.list(
      workspaceId,
      pipelineListQuerySchema.parse({ _end: 100, name }),
    );
    return !rows.some((s) => s.name === name);
  }

  /**
   * A service account of the workspace with the role given (developer to push, viewer to pull),
   * its token in the named secret's `.dockerconfigjson` for the registry's host.
   */
  private async makeRegistrySecret(
    workspaceId: string,
    caller: QuickSetupCaller,
    made: <T>(value: T, remove: (value: T) => Promise<unknown>) => T,
    secret: { name: string; role: 'developer' | 'viewer'; what: string },
  ) {
    const { links } = this;
    const account = made(
      await links.serviceAccounts.create(
        { id: caller.actorId ?? '', organisationId: caller.organisationId },
        {
          name: `registry-${secret.role}-${workspaceId.slice(0, 8)}-${Date.now().toString(36)}`,
          expiresAt: new Date(Date.now() + CREDENTIAL_DAYS * DAY_MS).toISOString(),
          workspaces: [{ workspaceId, role: secret.role }],
        },
      ),
      (a) => links.serviceAccounts.revoke(caller.organisationId, a.id),
    );
    const host = links.registryPrefix(workspaceId).split('/')[0]!;
    const auth = Buffer.from(`quick-setup:${account.token}`).toString('base64');
    made(
      await links.secrets.create(
        workspaceId,
        {
          name: secret.name,
          description: `${secret.what} images at ${host} (service account ${account.name})`,
          type: 'registry',
          global: true,
          values: { '.dockerconfigjson': JSON.stringify({ auths: { [host]: { auth } } }) },
        },
        caller.actorId,
      ),
      (s) => links.secrets.remove(workspaceId, s.id),
    );
  }
}
