import { WORKSPACE_BINDING_KINDS, type WorkspaceBindingKind } from '@slipway/contracts';

/** Binding kinds the local executor provides: a fresh directory, or one filled with files. */
const LOCAL_KINDS: readonly WorkspaceBindingKind[] = ['emptyDir', 'secret', 'configMap'];

/**
 * The kind of volume a run's workspace binding names that the local executor cannot provide
 * (persistentVolumeClaim, volumeClaimTemplate, csi, projected), or null.
 */
export function unsupportedBindingKind(binding: object): WorkspaceBindingKind | null {
  const given = binding as Record<string, unknown>;
  return (
    WORKSPACE_BINDING_KINDS.find((kind) => !LOCAL_KINDS.includes(kind) && given[kind] !== undefined) ?? null
  );
}

/** One issue per binding the local executor cannot provide, naming the workspace and the kind. */
export function localBindingIssues(bindings: readonly object[]): { path: string; message: string }[] {
  return bindings.flatMap((binding, i) => {
    const kind = unsupportedBindingKind(binding);
    if (!kind) return [];
    const name = (binding as { name?: string }).name ?? '';
    return [
      {
        path: `workspaces[${i}]`,
        message: `workspace "${name}" is bound to a ${kind}, which the local executor cannot provide`,
      },
    ];
  });
}
