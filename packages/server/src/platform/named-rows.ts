import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from './database/unique-violation.js';
import { ConflictError, NotFoundError } from './errors.js';

/** What NamedRows needs of a store of a workspace's named rows. */
export interface NamedRowsStore<R> {
  get(workspaceId: string, id: string): Promise<R | null>;
  nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean>;
  delete(id: string): Promise<void>;
}

/**
 * A store of a workspace's uniquely named rows (decision 030): `R` as it reads them, `New` as it
 * inserts one (throwing a unique violation when the workspace has a row of that name), `Patch` as
 * it changes one.
 */
export interface NamedStore<R, New, Patch> extends NamedRowsStore<R> {
  insert(row: New): Promise<void>;
  update(id: string, patch: Patch): Promise<void>;
}

/**
 * The rules a service keeps over rows whose name is unique in their workspace: an id the
 * workspace does not have is a 404 (`notFound`), and a name another row has is a 409
 * (`nameTaken`), asked first and answered again if the write's unique index refuses it (a race).
 */
export class NamedRows<R> {
  constructor(
    private readonly store: NamedRowsStore<R>,
    private readonly messages: { notFound: string; nameTaken: string },
  ) {}

  async require(workspaceId: string, id: string): Promise<R> {
    const row = await this.store.get(workspaceId, id);
    if (!row) throw new NotFoundError(this.messages.notFound);
    return row;
  }

  /** Refuses `name` when a row of the workspace other than `exceptId` has it; no name, nothing to ask. */
  async checkName(workspaceId: string, name: string | undefined, exceptId?: string): Promise<void> {
    if (name !== undefined && (await this.store.nameTaken(workspaceId, name, exceptId)))
      throw new ConflictError(this.messages.nameTaken);
  }

  /** Runs an insert or an update, answering the name's unique violation as the conflict it is. */
  async write<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(this.messages.nameTaken);
      throw err;
    }
  }

  /** Deletes a row of the workspace, a 404 when it has none of that id. */
  async remove(workspaceId: string, id: string): Promise<void> {
    await this.require(workspaceId, id);
    await this.store.delete(id);
  }
}

/**
 * A service of a workspace's uniquely named rows, each answered as `present` shows it: get and
 * remove, and the create and update steps that keep NamedRows' rules (`rows`).
 */
export class NamedRowsService<R, T> {
  protected readonly rows: NamedRows<R>;

  constructor(
    store: NamedRowsStore<R>,
    messages: { notFound: string; nameTaken: string },
    private readonly present: (row: R) => T | Promise<T>,
  ) {
    this.rows = new NamedRows(store, messages);
  }

  async get(workspaceId: string, id: string): Promise<T> {
    return this.present(await this.rows.require(workspaceId, id));
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.rows.remove(workspaceId, id);
  }

  /** Inserts a row named `name`, which no row of the workspace may have, under a new id; answers it. */
  protected async insertNamed(
    workspaceId: string,
    name: string,
    insert: (id: string) => Promise<void>,
  ): Promise<T> {
    await this.rows.checkName(workspaceId, name);
    const id = randomUUID();
    await this.rows.write(() => insert(id));
    return this.get(workspaceId, id);
  }

  /**
   * Changes row `id` of the workspace (a 404 when it has none) to `name`, if given, which no other
   * row may have; `update` gets the row as it was. Answers the row as it is now.
   */
  protected async updateNamed(
    workspaceId: string,
    id: string,
    name: string | undefined,
    update: (row: R) => Promise<void>,
  ): Promise<T> {
    const row = await this.rows.require(workspaceId, id);
    await this.rows.checkName(workspaceId, name, id);
    await this.rows.write(() => update(row));
    return this.get(workspaceId, id);
  }
}

/** A row with a name, a description and the times it was made and last changed. */
interface DescribedRow {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What the API shows of such a row besides its own fields: id, name, description, and its times in ISO. */
export function describedRow(row: DescribedRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The fields of `input` among `keys` that were given (not undefined): a patch keeping what was omitted. */
export function givenFields<T extends object, K extends keyof T>(
  input: T,
  keys: readonly K[],
): { [P in K]?: Exclude<T[P], undefined> } {
  return Object.fromEntries(keys.filter((k) => input[k] !== undefined).map((k) => [k, input[k]])) as {
    [P in K]?: Exclude<T[P], undefined>;
  };
}
