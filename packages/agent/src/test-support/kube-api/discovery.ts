import type { Kinds } from './kinds.js';

/** The media type of aggregated discovery (apidiscovery.k8s.io/v2), which kubectl 1.31 asks for first. */
export const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** Whether an Accept header asks for aggregated discovery v2 before plain JSON. */
export function wantsAggregated(accept: string | undefined): boolean {
  const first = (accept ?? '').split(',')[0]!.replace(/\s/g, '');
  return (
    first.includes('g=apidiscovery.k8s.io') &&
    first.includes('v=v2;') &&
    first.includes('as=APIGroupDiscoveryList')
  );
}

interface LegacyResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

/** One group version's resources in the aggregated shape, from the legacy APIResourceList. */
function versionEntry(kinds: Kinds, group: string, version: string) {
  const legacy = kinds.resourceList(group, version).resources as unknown as LegacyResource[];
  const kindOf = (r: LegacyResource) => ({
    group: r.group ?? group,
    version: r.version ?? version,
    kind: r.kind,
  });
  const resources = legacy
    .filter((r) => !r.name.includes('/'))
    .map((r) => ({
      resource: r.name,
      responseKind: kindOf(r),
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName,
      verbs: r.verbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
      subresources: legacy
        .filter((s) => s.name.startsWith(`${r.name}/`))
        .map((s) => ({ subresource: s.name.split('/')[1]!, responseKind: kindOf(s), verbs: s.verbs })),
    }))
    .map(({ subresources, ...r }) => (subresources.length ? { ...r, subresources } : r));
  return { version, resources, freshness: 'Current' };
}

/** GET /api or /apis with the aggregated media type: every group version's resources at once. */
export function aggregatedDiscovery(kinds: Kinds, core: boolean): Record<string, unknown> {
  const groups = core ? [{ name: '', versions: [{ version: 'v1' }] }] : kinds.groupList().groups;
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map((g) => ({
      metadata: g.name ? { name: g.name } : {},
      versions: g.versions.map((v) => versionEntry(kinds, g.name, v.version)),
    })),
  };
}
