import { eq } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { pipelines } from '../../platform/database/schema.js';
import { getInWorkspace } from '../../platform/database/workspace-rows.js';

/** A runnable pipeline (not a template) of the workspace, for what starts its runs (schedules, webhooks). */
export function runnablePipeline(
  db: AppDb,
  workspaceId: string,
  id: string,
): Promise<{ id: string; name: string } | null> {
  return getInWorkspace(db, pipelines, workspaceId, id, {
    select: db.select({ id: pipelines.id, name: pipelines.name }).from(pipelines).$dynamic(),
    where: [eq(pipelines.kind, 'pipeline')],
  });
}
