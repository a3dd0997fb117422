import type { PipelineRunDetail } from '@slipway/contracts';
import { usePipelineVersionQuery, useRunExportQuery } from './api';

/**
 * The definition of the pipeline a run ran: its pipeline's version, or, for a run created from a
 * Tekton document (whose own pipeline is not among the workspace's), the pipelineSpec of the run's
 * export. undefined while loading, null when it cannot be read.
 */
export function useRunDefinition(run: PipelineRunDetail): string | null | undefined {
  const version = usePipelineVersionQuery({ id: run.pipelineId, version: run.pipelineVersion });
  const own = Boolean(run.trigger.document) && version.isError;
  const exported = useRunExportQuery(run.id, { skip: !own });
  if (version.data) return version.data.definition;
  if (!version.isError) return undefined;
  if (!own) return null;
  const spec = exported.data?.spec?.pipelineSpec;
  if (spec) return JSON.stringify({ kind: 'Pipeline', spec });
  return exported.isError || exported.isSuccess ? null : undefined;
}
