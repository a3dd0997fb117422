import type { ApiContext } from './context.js';
import { apiVersionOf, isReview } from './kinds.js';
import { HttpError, isObject, type AccessAttributes, type KindInfo } from './types.js';
import type { VerbResult } from './verbs.js';

const USER = { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };

/** authorization.k8s.io reviews and authentication.k8s.io SelfSubjectReview: nothing is stored. */
export function review(ctx: ApiContext, kind: KindInfo, body: unknown): VerbResult {
  if (!isObject(body) || body.kind !== kind.kind || body.apiVersion !== apiVersionOf(kind)) {
    throw new HttpError(
      400,
      'BadRequest',
      `the API version in the data (${String(isObject(body) ? body.apiVersion : '')}) does not match the expected API version (${apiVersionOf(kind)})`,
    );
  }
  const spec = isObject(body.spec) ? body.spec : {};
  const metadata = { ...(isObject(body.metadata) ? body.metadata : {}), creationTimestamp: null };
  const answer = (status: unknown) => ({
    code: 201,
    object: { kind: kind.kind, apiVersion: apiVersionOf(kind), metadata, spec, status },
  });
  switch (kind.kind) {
    case 'SelfSubjectReview':
      return {
        code: 201,
        object: { kind: kind.kind, apiVersion: apiVersionOf(kind), metadata, status: { userInfo: USER } },
      };
    case 'SelfSubjectAccessReview':
    case 'SubjectAccessReview': {
      const r = isObject(spec.resourceAttributes) ? spec.resourceAttributes : undefined;
      const n = isObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : undefined;
      if (!r && !n) {
        throw new HttpError(
          422,
          'Invalid',
          `${kind.kind}.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified`,
        );
      }
      const attrs: AccessAttributes = r
        ? {
            verb: String(r.verb ?? ''),
            group: String(r.group ?? ''),
            resource: String(r.resource ?? ''),
            ...(r.subresource ? { subresource: String(r.subresource) } : {}),
            ...(r.namespace ? { namespace: String(r.namespace) } : {}),
            ...(r.name ? { name: String(r.name) } : {}),
          }
        : { verb: String(n!.verb ?? ''), group: '', resource: String(n!.path ?? '') };
      const denied = ctx.deny(attrs);
      return answer(
        denied
          ? { allowed: false, denied: true, reason: 'denied by the test API server' }
          : {
              allowed: true,
              reason:
                'RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins" of ClusterRole "cluster-admin" to Group "kubeadm:cluster-admins"',
            },
      );
    }
    case 'SelfSubjectRulesReview': {
      const namespace = typeof spec.namespace === 'string' ? spec.namespace : '';
      const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
      const probe = ctx.deny({ verb: '*', group: '*', resource: '*', namespace });
      const resourceRules =
        probe ||
        ctx.kinds.all.some((k) =>
          verbs.some((verb) => ctx.deny({ verb, group: k.group, resource: k.plural, namespace })),
        )
          ? ctx.kinds.all
              .filter((k) => !isReview(k))
              .map((k) => ({
                verbs: verbs.filter(
                  (verb) => !ctx.deny({ verb, group: k.group, resource: k.plural, namespace }),
                ),
                apiGroups: [k.group],
                resources: [k.plural],
              }))
              .filter((rule) => rule.verbs.length > 0)
          : [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
      return answer({
        resourceRules: [
          {
            verbs: ['create'],
            apiGroups: ['authorization.k8s.io'],
            resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
          },
          ...resourceRules,
        ],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      });
    }
    default:
      throw new HttpError(
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      );
  }
}
