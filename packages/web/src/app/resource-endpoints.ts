import type { EndpointBuilder, MutationDefinition, QueryDefinition } from '@reduxjs/toolkit/query';
import type { sessionBaseQuery } from './api';
import { totalOf, type Page } from './page';

type Base = typeof sessionBaseQuery;

/**
 * The endpoints of a plain resource at `/api/<url>`:
 * - `list`: a page of rows (`GET <url>?params`, the total from X-Total-Count);
 * - `all`: every row, unpaged (`GET <url>`);
 * - `get`: one (`GET <url>/:id`);
 * - `create` (`POST <url>`), `update` (`PUT <url>/:id`), `delete` (`DELETE <url>/:id`).
 */
export type ResourceOp = 'list' | 'all' | 'get' | 'create' | 'update' | 'delete';

/** The types a resource's endpoints carry. */
export interface ResourceTypes {
  /** a row of the list */
  row: unknown;
  /** what get and update answer (create too, unless `created` says otherwise); the row if not given */
  detail?: unknown;
  /** what create answers, when not the detail */
  created?: unknown;
  /** the body create sends */
  create?: unknown;
  /** the body update sends */
  update?: unknown;
}

type Detail<T extends ResourceTypes> = T extends { detail: infer D } ? D : T['row'];
type Created<T extends ResourceTypes> = T extends { created: infer C } ? C : Detail<T>;
type Field<T extends ResourceTypes, K extends 'create' | 'update'> = T extends Record<K, infer B> ? B : never;

type Definitions<T extends ResourceTypes, Tags extends string> = {
  list: QueryDefinition<Record<string, string>, Base, Tags, Page<T['row']>, 'api'>;
  all: QueryDefinition<void, Base, Tags, T['row'][], 'api'>;
  get: QueryDefinition<string, Base, Tags, Detail<T>, 'api'>;
  create: MutationDefinition<Field<T, 'create'>, Base, Tags, Created<T>, 'api'>;
  update: MutationDefinition<{ id: string; body: Field<T, 'update'> }, Base, Tags, Detail<T>, 'api'>;
  delete: MutationDefinition<string, Base, Tags, void, 'api'>;
};

/** The endpoint names, hence RTK Query's hook names: configMaps, configMap, createConfigMap, … */
type Names<Name extends string> = {
  list: `${Name}s`;
  all: `${Name}s`;
  get: Name;
  create: `create${Capitalize<Name>}`;
  update: `update${Capitalize<Name>}`;
  delete: `delete${Capitalize<Name>}`;
};

export type ResourceEndpoints<
  T extends ResourceTypes,
  Tags extends string,
  Name extends string,
  Op extends ResourceOp,
> = {
  [O in Op as Names<Name>[O]]: Definitions<T, Tags>[O];
};

/**
 * The endpoints `ops` of the resource `name` at `/api/<url>`, to spread into `injectEndpoints`.
 * Their names are `<name>s` (list, all), `<name>` (get), `create<Name>`, `update<Name>` and
 * `delete<Name>`. The cache tag is `<Name>` (which `enhanceEndpoints` must add): the list provides
 * `{ id: 'LIST' }` and get `{ id }`; create and delete invalidate the list, update the list and
 * the row's own tag (a no-op where the resource has no get).
 *
 * `T` names the types: `resourceEndpoints<{ row: ConfigMap; create: …; update: … }>()(build, {…})`.
 */
export function resourceEndpoints<T extends ResourceTypes>() {
  return <Tags extends string, Name extends Uncapitalize<Tags>, Op extends ResourceOp>(
    build: EndpointBuilder<Base, Tags, 'api'>,
    { name, url, ops }: { name: Name; url: string; ops: readonly Op[] },
  ): ResourceEndpoints<T, Tags, Name, Op> => {
    const type = (name.charAt(0).toUpperCase() + name.slice(1)) as Tags;
    const LIST = { type, id: 'LIST' };
    const one = (id: string) => `${url}/${encodeURIComponent(id)}`;
    const definitions = {
      list: build.query<Page<T['row']>, Record<string, string>>({
        query: (params) => ({ url, params }),
        transformResponse: (rows: T['row'][], meta) => ({ rows, total: totalOf(meta, rows.length) }),
        providesTags: [LIST],
      }),
      all: build.query<T['row'][], void>({
        query: () => url,
        providesTags: [LIST],
      }),
      get: build.query<Detail<T>, string>({
        query: (id) => one(id),
        providesTags: (_r, _e, id) => [{ type, id }],
      }),
      create: build.mutation<Created<T>, Field<T, 'create'>>({
        query: (body) => ({ url, method: 'POST', body }),
        invalidatesTags: [LIST],
      }),
      update: build.mutation<Detail<T>, { id: string; body: Field<T, 'update'> }>({
        query: ({ id, body }) => ({ url: one(id), method: 'PUT', body }),
        invalidatesTags: (_r, _e, { id }) => [{ type, id }, LIST],
      }),
      delete: build.mutation<void, string>({
        query: (id) => ({ url: one(id), method: 'DELETE' }),
        invalidatesTags: [LIST],
      }),
    };
    const names: Record<ResourceOp, string> = {
      list: `${name}s`,
      all: `${name}s`,
      get: name,
      create: `create${type}`,
      update: `update${type}`,
      delete: `delete${type}`,
    };
    return Object.fromEntries(ops.map((op) => [names[op], definitions[op]])) as ResourceEndpoints<
      T,
      Tags,
      Name,
      Op
    >;
  };
}
