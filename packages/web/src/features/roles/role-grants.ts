import {
  ORGANISATION_RESOURCES,
  PERMISSION_ACTIONS,
  PERMISSION_RESOURCES,
  type Permission,
  type PermissionAction,
  type PermissionGrant,
  type PermissionResource,
} from '@slipway/contracts';

/** One row of the permission matrix: a resource, the actions ticked, and the environments text. */
export interface MatrixRow {
  resource: PermissionResource;
  actions: PermissionAction[];
  /** comma-separated environment names; empty means every environment */
  environments: string;
}

export function isOrganisationResource(resource: PermissionResource): boolean {
  return ORGANISATION_RESOURCES.includes(resource);
}

/** Environment names from the text a user typed: split at commas, trimmed, blanks and repeats dropped. */
export function parseEnvironments(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** The matrix for a role's grants: every resource, in catalogue order. */
export function grantsToMatrix(grants: readonly PermissionGrant[]): MatrixRow[] {
  return PERMISSION_RESOURCES.map((resource) => {
    const own = grants.filter((g) => g.permission.startsWith(`${resource}:`));
    const actions = PERMISSION_ACTIONS.filter((a) => own.some((g) => g.permission === `${resource}:${a}`));
    const envs = [...new Set(own.flatMap((g) => g.environments ?? []))];
    return { resource, actions, environments: envs.join(', ') };
  });
}

/**
 * The grants a matrix stands for: one per ticked action; a row's environments limit each of its
 * grants (organisation-wide resources have no environments).
 */
export function matrixToGrants(rows: readonly MatrixRow[]): PermissionGrant[] {
  return rows.flatMap((row) => {
    const environments = isOrganisationResource(row.resource) ? [] : parseEnvironments(row.environments);
    return PERMISSION_ACTIONS.filter((a) => row.actions.includes(a)).map((a) => {
      const permission = `${row.resource}:${a}` as Permission;
      return environments.length > 0 ? { permission, environments } : { permission };
    });
  });
}

/** Ticks or unticks one action of one row. */
export function toggleAction(
  rows: MatrixRow[],
  resource: PermissionResource,
  action: PermissionAction,
): MatrixRow[] {
  return rows.map((r) =>
    r.resource !== resource
      ? r
      : {
          ...r,
          actions: r.actions.includes(action)
            ? r.actions.filter((a) => a !== action)
            : [...r.actions, action],
        },
  );
}

export function setEnvironments(rows: MatrixRow[], resource: PermissionResource, text: string): MatrixRow[] {
  return rows.map((r) => (r.resource === resource ? { ...r, environments: text } : r));
}
