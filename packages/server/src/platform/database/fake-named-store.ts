import { FakeNamedTable, withDefaults, type NamedRow } from './fake-rows.js';

/**
 * What the fake stores of a workspace's named rows share (decision 030): one row by id or by
 * name, the name check, an insert that fills the columns' defaults, an update and a delete, all
 * over a FakeNamedTable answering as the SQL does. A store adds its list and its own queries.
 */
export class FakeNamedStore<R extends NamedRow> {
  protected readonly table: FakeNamedTable<R>;

  /** `defaults`: the columns an insert may leave out, with the values the SQL gives them. */
  constructor(
    table: string,
    uniqueIndex: string,
    private readonly defaults: (now: Date) => Partial<R>,
  ) {
    this.table = new FakeNamedTable<R>(table, uniqueIndex);
  }

  async get(workspaceId: string, id: string): Promise<R | null> {
    return this.table.get(workspaceId, id);
  }

  async findByName(workspaceId: string, name: string): Promise<R | null> {
    return this.table.findByName(workspaceId, name);
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    return this.table.nameTaken(workspaceId, name, exceptId);
  }

  async insert(row: Partial<R>): Promise<void> {
    this.table.insert(withDefaults<R>(this.defaults(new Date()), row));
  }

  async update(id: string, patch: Partial<R>): Promise<void> {
    this.table.update(id, patch);
  }

  async delete(id: string): Promise<void> {
    this.table.delete(id);
  }
}
