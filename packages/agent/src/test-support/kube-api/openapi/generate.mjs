// Regenerates the data files beside it from the unmodified Kubernetes v1.31 OpenAPI v2 document
// (`api/openapi-spec/swagger.json` of kubernetes/kubernetes release-1.31, as vendored by
// kubernetes-client/python v31.0.0 in `kubernetes/swagger.json.unprocessed`):
//   node generate.mjs /path/to/swagger.json
// It keeps the group-versions the test API server serves and converts each to the per
// group-version OpenAPI v3 document the way kube-openapi's openapiconv.ConvertV2ToV3 does.
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const GROUP_VERSIONS = [
  'api/v1',
  'apis/apps/v1',
  'apis/batch/v1',
  'apis/networking.k8s.io/v1',
  'apis/rbac.authorization.k8s.io/v1',
  'apis/storage.k8s.io/v1',
  'apis/autoscaling/v1',
  'apis/authorization.k8s.io/v1',
  'apis/authentication.k8s.io/v1',
];
const here = new URL('.', import.meta.url);
const v2 = JSON.parse(readFileSync(process.argv[2], 'utf8'));

const keepPath = (p) =>
  p === '/api/' ||
  p === '/apis/' ||
  p === '/version/' ||
  GROUP_VERSIONS.some(
    (gv) =>
      p.startsWith(`/${gv}/`) || (gv.startsWith('apis/') && p === `/${gv.split('/').slice(0, 2).join('/')}/`),
  );

function refsOf(node, out, prefix) {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out, prefix));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(prefix)) out.add(v.slice(prefix.length));
      else refsOf(v, out, prefix);
    }
  }
  return out;
}
function closure(roots, definitions) {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length) {
    const name = todo.pop();
    if (seen.has(name) || !definitions[name]) continue;
    seen.add(name);
    todo.push(...refsOf(definitions[name], new Set(), '#/definitions/'));
  }
  return seen;
}
const resolveParam = (p) => (p.$ref ? v2.parameters[p.$ref.slice('#/parameters/'.length)] : p);

// ---- v2, trimmed ----
const paths = Object.fromEntries(Object.entries(v2.paths).filter(([p]) => keepPath(p)));
const params = new Set(refsOf(paths, new Set(), '#/parameters/'));
const parameters = Object.fromEntries(Object.entries(v2.parameters).filter(([k]) => params.has(k)));
const roots = refsOf({ paths, parameters }, new Set(), '#/definitions/');
for (const name of Object.keys(v2.definitions))
  if (name.startsWith('io.k8s.apimachinery.pkg.apis.meta.v1.')) roots.add(name);
for (const [name, def] of Object.entries(v2.definitions)) {
  const gvks = def['x-kubernetes-group-version-kind'] ?? [];
  if (
    gvks.some((g) => GROUP_VERSIONS.includes(g.group ? `apis/${g.group}/${g.version}` : `api/${g.version}`))
  )
    roots.add(name);
}
const keep = closure(roots, v2.definitions);
const definitions = Object.fromEntries(
  Object.entries(v2.definitions)
    .filter(([k]) => keep.has(k))
    .sort(([a], [b]) => a.localeCompare(b)),
);
const trimmed = { ...v2, paths, parameters, definitions };
writeFileSync(new URL('swagger-v1.31.json.gz', here), gzipSync(JSON.stringify(trimmed), { level: 9 }));

// ---- v3 per group-version ----
const toV3Ref = (node) =>
  JSON.parse(JSON.stringify(node).replaceAll('"#/definitions/', '"#/components/schemas/'));
function schemaOfParam(p) {
  const { name: _n, in: _i, description: _d, required: _r, uniqueItems, ...rest } = p;
  return { ...rest, ...(uniqueItems ? { uniqueItems } : {}) };
}
function convertOperation(op, pathParams) {
  const out = {};
  for (const k of [
    'tags',
    'description',
    'operationId',
    'x-kubernetes-action',
    'x-kubernetes-group-version-kind',
  ])
    if (op[k] !== undefined) out[k] = op[k];
  const all = [...pathParams, ...(op.parameters ?? []).map(resolveParam)];
  const nonBody = all.filter((p) => p.in !== 'body');
  if (nonBody.length && op.parameters)
    out.parameters = (op.parameters ?? [])
      .map(resolveParam)
      .filter((p) => p.in !== 'body')
      .map(convertParam);
  const body = all.find((p) => p.in === 'body');
  if (body) {
    const consumes = op.consumes ?? v2.consumes ?? ['application/json'];
    const consumesList = consumes.includes('*/*') ? ['*/*'] : consumes;
    out.requestBody = {
      content: Object.fromEntries(consumesList.map((c) => [c, { schema: toV3Ref(body.schema) }])),
      required: body.required ?? false,
    };
  }
  out.responses = {};
  for (const [code, r] of Object.entries(op.responses ?? {})) {
    const resp = { description: r.description ?? '' };
    if (r.schema)
      resp.content = Object.fromEntries(
        (op.produces ?? ['application/json']).map((m) => [m, { schema: toV3Ref(r.schema) }]),
      );
    out.responses[code] = resp;
  }
  return out;
}
function convertParam(p) {
  const out = { name: p.name, in: p.in };
  if (p.description) out.description = p.description;
  if (p.required) out.required = true;
  out.schema = schemaOfParam(p);
  return out;
}
function v3Doc(prefixes) {
  const ps = {};
  for (const [p, item] of Object.entries(paths)) {
    if (!prefixes(p)) continue;
    const pathParams = (item.parameters ?? []).map(resolveParam).filter((x) => x.in !== 'body');
    const conv = {};
    for (const [verb, op] of Object.entries(item))
      if (verb !== 'parameters') conv[verb] = convertOperation(op, pathParams);
    if (pathParams.length) conv.parameters = pathParams.map(convertParam);
    ps[p] = conv;
  }
  const used = closure(refsOf(ps, new Set(), '#/components/schemas/'), v2.definitions);
  const schemas = Object.fromEntries([...used].sort().map((n) => [n, toV3Ref(v2.definitions[n])]));
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths: ps,
    components: {
      schemas,
      securitySchemes: {
        BearerToken: {
          type: 'apiKey',
          description: 'Bearer Token authentication',
          name: 'authorization',
          in: 'header',
        },
      },
    },
    security: [{ BearerToken: [] }],
  };
}
const v3 = {};
for (const gv of GROUP_VERSIONS) v3[gv] = v3Doc((p) => p.startsWith(`/${gv}/`));
v3['api'] = v3Doc((p) => p === '/api/');
v3['apis'] = v3Doc((p) => p === '/apis/');
v3['version'] = v3Doc((p) => p === '/version/');
for (const gv of GROUP_VERSIONS.filter((g) => g.startsWith('apis/'))) {
  const group = gv.split('/').slice(0, 2).join('/');
  v3[group] = v3Doc((p) => p === `/${group}/`);
}
writeFileSync(new URL('v3-v1.31.json.gz', here), gzipSync(JSON.stringify(v3), { level: 9 }));
console.log(
  Object.keys(definitions).length,
  'definitions;',
  Object.keys(paths).length,
  'paths;',
  Object.keys(v3).join(' '),
);
