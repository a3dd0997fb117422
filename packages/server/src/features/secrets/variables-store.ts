import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { variables } from '../../platform/database/schema.js';
import type { VariablesStore as VariablesStoreType, VariableRow } from './variables-store-type.js';

export type { VariableRow } from './variables-store-type.js';

/** SQL for a workspace's plain variables. */
export class VariablesStore implements VariablesStoreType {
  constructor(private readonly db: AppDb) {}

  async list(workspaceId: string): Promise<VariableRow[]> {
    return this.db
      .select()
      .from(variables)
      .where(eq(variables.workspaceId, workspaceId))
      .orderBy(asc(variables.name));
  }

  async get(workspaceId: string, id: string): Promise<VariableRow | null> {
    const [row] = await this.db
      .select()
      .from(variables)
      .where(and(eq(variables.workspaceId, workspaceId), eq(variables.id, id)))
      .limit(1);
    return row ?? null;
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: variables.id })
      .from(variables)
      .where(
        and(
          eq(variables.workspaceId, workspaceId),
          eq(variables.name, name),
          exceptId ? sql`${variables.id} <> ${exceptId}` : undefined,
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  async insert(row: typeof variables.$inferInsert): Promise<void> {
    await this.db.insert(variables).values(row);
  }

  async update(
    id: string,
    patch: Partial<Pick<VariableRow, 'name' | 'value' | 'description'>>,
  ): Promise<void> {
    await this.db
      .update(variables)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(variables.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(variables).where(eq(variables.id, id));
  }
}
