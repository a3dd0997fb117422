import {
  agentCommandSchema,
  agentStreamCommandSchema,
  type AgentCommandParsed,
  type AgentResults,
  type AgentStreamCommandParsed,
  type KubernetesObject,
  type ResourceRef,
} from '@slipway/contracts';
import { aggregateHealth, resourceHealth } from './health.js';
import { AgentError, type KubeClient } from './kube.js';

/**
 * Which namespaces the agent may touch. A limited agent (the attach YAML gives it Roles in its
 * allowed namespaces only) refuses anything else before asking the cluster.
 */
export class NamespacePolicy {
  constructor(
    readonly limited: boolean,
    readonly allowed: string[],
  ) {}

  private refusal(what: string): AgentError {
    return new AgentError(
      'forbidden_namespace',
      `${what} is not allowed: this limited agent works only in the namespaces ${this.allowed.join(', ')}`,
    );
  }

  /** Checks a namespace (undefined: cluster-scoped or all namespaces). */
  check(namespace: string | undefined, what: string): void {
    if (!this.limited) return;
    if (!namespace) throw this.refusal(what);
    if (!this.allowed.includes(namespace)) throw this.refusal(`Namespace "${namespace}"`);
  }
}

/** A command's args failed their schema: name the field and the rule. */
function invalid(error: { issues: { path: PropertyKey[]; message: string }[] }): AgentError {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || 'args';
  return new AgentError('invalid', `${field}: ${issue?.message ?? 'invalid'}`);
}

export function parseCommand(kind: string, args: unknown): AgentCommandParsed {
  const parsed = agentCommandSchema.safeParse({ kind, args: args ?? {} });
  if (!parsed.success) {
    if (!agentCommandSchema.options.some((o) => o.shape.kind.value === kind)) {
      throw new AgentError('unsupported', `Unknown command "${kind}"`);
    }
    throw invalid(parsed.error);
  }
  return parsed.data;
}

export function parseStreamCommand(kind: string, args: unknown): AgentStreamCommandParsed {
  const parsed = agentStreamCommandSchema.safeParse({ kind, args: args ?? {} });
  if (!parsed.success) {
    if (!agentStreamCommandSchema.options.some((o) => o.shape.kind.value === kind)) {
      throw new AgentError('unsupported', `Unknown stream command "${kind}"`);
    }
    throw invalid(parsed.error);
  }
  return parsed.data;
}

/** Runs request/reply commands against the cluster. */
export class CommandRunner {
  constructor(
    private readonly kube: KubeClient,
    private readonly policy: NamespacePolicy,
  ) {}

  /** The namespace a ref lives in (undefined for cluster-scoped kinds), checked against the policy. */
  private async scope(
    ref: { apiVersion: string; kind: string; namespace?: string | undefined },
    defaultNamespace?: string,
  ) {
    const info = await this.kube.resource(ref.apiVersion, ref.kind);
    if (!info.namespaced) {
      this.policy.check(undefined, `${ref.kind} is cluster-scoped and`);
      return undefined;
    }
    const namespace = ref.namespace ?? defaultNamespace ?? 'default';
    this.policy.check(namespace, `Namespace "${namespace}"`);
    return namespace;
  }

  async run(command: AgentCommandParsed): Promise<AgentResults[keyof AgentResults]> {
    switch (command.kind) {
      case 'apply': {
        const { manifests, namespace, force, dryRun } = command.args;
        // Check every object first: nothing is applied when one of them is refused.
        const placed: KubernetesObject[] = [];
        for (const m of manifests) {
          const ns = await this.scope(
            { apiVersion: m.apiVersion, kind: m.kind, namespace: m.metadata.namespace },
            namespace,
          );
          const { namespace: _drop, ...meta } = m.metadata;
          placed.push({ ...m, metadata: ns ? { ...meta, namespace: ns } : meta });
        }
        const applied: AgentResults['apply']['applied'] = [];
        for (const m of placed) {
          let tookBack: { field: string; manager: string }[] = [];
          const result = await this.kube.apply(m, { force, dryRun }, (conflicts) => {
            tookBack = conflicts.map((c) => ({ field: c.field, manager: c.manager }));
          });
          applied.push({
            apiVersion: m.apiVersion,
            kind: m.kind,
            name: m.metadata.name,
            ...(m.metadata.namespace ? { namespace: m.metadata.namespace } : {}),
            ...(typeof result.metadata?.uid === 'string' ? { uid: result.metadata.uid } : {}),
            ...(typeof result.metadata?.resourceVersion === 'string'
              ? { resourceVersion: result.metadata.resourceVersion }
              : {}),
            ...(tookBack.length > 0 ? { tookBack } : {}),
          });
        }
        return { applied };
      }
      case 'delete': {
        const namespace = await this.scope(command.args);
        const ref = { ...command.args, ...(namespace ? { namespace } : { namespace: undefined }) };
        return { deleted: await this.kube.delete(ref, command.args.propagationPolicy) };
      }
      case 'get': {
        const namespace = await this.scope(command.args);
        const object = await this.kube.get({ ...command.args, namespace });
        if (!object) {
          throw new AgentError(
            'not_found',
            `${command.args.kind} "${command.args.name}" not found${namespace ? ` in namespace ${namespace}` : ''}`,
          );
        }
        return { object };
      }
      case 'list': {
        const args = command.args;
        const info = await this.kube.resource(args.apiVersion, args.kind);
        if (!info.namespaced) {
          this.policy.check(undefined, `${args.kind} is cluster-scoped and`);
          return this.kube.list(args);
        }
        if (args.namespace || !this.policy.limited) {
          this.policy.check(args.namespace, `Namespace "${args.namespace}"`);
          return this.kube.list(args);
        }
        // A limited agent lists "all namespaces" as all of its allowed namespaces.
        const items: KubernetesObject[] = [];
        for (const ns of this.policy.allowed) {
          const part = await this.kube.list({
            ...args,
            namespace: ns,
            limit: undefined,
            continue: undefined,
          });
          items.push(...part.items);
        }
        return { items };
      }
      case 'resources': {
        const resources = await this.kube.resources(true);
        return { resources: this.policy.limited ? resources.filter((r) => r.namespaced) : resources };
      }
      case 'namespaces':
        return { namespaces: this.policy.limited ? [...this.policy.allowed] : await this.kube.namespaces() };
      case 'events': {
        const { namespace, involvedObject, limit } = command.args;
        const fieldSelector = involvedObject
          ? `involvedObject.kind=${involvedObject.kind},involvedObject.name=${involvedObject.name}`
          : undefined;
        const namespaces = namespace ? [namespace] : this.policy.limited ? this.policy.allowed : [undefined];
        const raw: KubernetesObject[] = [];
        for (const ns of namespaces) {
          this.policy.check(ns, `Namespace "${ns}"`);
          const part = await this.kube.list({
            apiVersion: 'v1',
            kind: 'Event',
            ...(ns ? { namespace: ns } : {}),
            ...(fieldSelector ? { fieldSelector } : {}),
          });
          raw.push(...part.items);
        }
        const events = raw
          .map((e) => {
            const ev = e as KubernetesObject & {
              type?: string;
              reason?: string;
              message?: string;
              count?: number;
              lastTimestamp?: string;
              eventTime?: string;
              involvedObject?: { kind?: string; name?: string };
            };
            const when =
              ev.lastTimestamp ?? ev.eventTime ?? (ev.metadata.creationTimestamp as string | undefined);
            return {
              ...(ev.metadata.namespace ? { namespace: ev.metadata.namespace } : {}),
              ...(ev.type ? { type: ev.type } : {}),
              ...(ev.reason ? { reason: ev.reason } : {}),
              ...(ev.message ? { message: ev.message } : {}),
              ...(ev.involvedObject
                ? { involvedObject: { kind: ev.involvedObject.kind, name: ev.involvedObject.name } }
                : {}),
              ...(typeof ev.count === 'number' ? { count: ev.count } : {}),
              ...(when ? { lastTimestamp: String(when) } : {}),
            };
          })
          .sort((a, b) => (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? ''));
        return { events: limit ? events.slice(0, limit) : events };
      }
      case 'health': {
        const resources: AgentResults['health']['resources'] = [];
        for (const ref of command.args.resources) {
          const namespace = await this.scope(ref).catch((error: unknown) => {
            if (error instanceof AgentError && error.code === 'not_found') return ref.namespace;
            throw error;
          });
          const live = await this.kube.get({ ...ref, namespace } as ResourceRef).catch((error: unknown) => {
            if (error instanceof AgentError && error.code === 'not_found') return null;
            throw error;
          });
          const health = resourceHealth(ref.apiVersion, ref.kind, live) ?? { status: 'healthy' as const };
          resources.push({ ...ref, ...(namespace ? { namespace } : {}), health });
        }
        return { status: aggregateHealth(resources.map((r) => r.health.status)), resources };
      }
      case 'facts':
        return this.kube.facts(this.policy.limited ? this.policy.allowed : null);
    }
  }
}
