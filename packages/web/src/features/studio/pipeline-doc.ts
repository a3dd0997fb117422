import {
  isMap,
  isScalar,
  isSeq,
  parseAllDocuments,
  type Document,
  type ToStringOptions,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { mergeEdit } from './yaml-merge';

/**
 * A pipeline definition (YAML, a stream of YAML documents, or JSON) opened for editing with the
 * `yaml` library's Document API, which keeps comments; `serialise` writes it back, replaying the
 * edit onto the text as it was written (see yaml-merge.ts), so nothing else in it changes.
 */

/** Why an edit was refused. */
export type EditErrorCode =
  | 'unreadable'
  | 'noPipeline'
  | 'noTask'
  | 'invalidName'
  | 'duplicateName'
  | 'cycle'
  | 'referenced'
  | 'finally';

export interface EditFailure {
  ok: false;
  error: EditErrorCode;
  /** the parse problem, for `unreadable` */
  message?: string;
  /** the tasks reading the removed task's results, for `referenced` */
  tasks?: string[];
  /** for `referenced`: the pipeline's own results read the removed task's */
  pipelineResults?: boolean;
}
export interface EditSuccess {
  ok: true;
  text: string;
  /** the task's name, as an added task got it */
  name?: string;
}
export type EditResult = EditSuccess | EditFailure;

export const fail = (error: EditErrorCode, more: Partial<EditFailure> = {}): EditFailure => ({
  ok: false,
  error,
  ...more,
});

export interface OpenPipeline {
  ok: true;
  docs: Document.Parsed[];
  /** the Pipeline document (the first mapping when none says `kind: Pipeline`) */
  doc: Document.Parsed;
  root: YAMLMap;
  json: boolean;
  options: ToStringOptions;
}

/** A pipeline task in the document: its node, name and list. */
export interface TaskNode {
  node: YAMLMap;
  name: string;
  isFinally: boolean;
  list: YAMLSeq;
}

/** How the text is laid out, so what is added looks like what is there. */
function styleOf(text: string): ToStringOptions {
  const lines = text.split('\n');
  let indentSeq = true;
  let indent = 2;
  for (let i = 0; i + 1 < lines.length; i++) {
    const key = /^(\s*)[^\s#-][^:#]*:\s*(#.*)?$/.exec(lines[i]!);
    if (!key) continue;
    const next = /^(\s*)(- )?\S/.exec(lines[i + 1]!);
    if (!next) continue;
    const depth = next[1]!.length - key[1]!.length;
    if (next[2]) {
      indentSeq = depth > 0;
      if (depth > 0) indent = depth;
      break;
    }
    if (depth > 0) indent = depth;
  }
  // the lists the studio writes in flow style (`runAfter: [a, b]`) follow the text's lists
  const padded = (text.match(/\[ [^\s\]]/g) ?? []).length;
  const tight = (text.match(/\[[^\s\]]/g) ?? []).length;
  return { lineWidth: 0, indent, indentSeq, flowCollectionPadding: padded > tight };
}

function isJson(text: string): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The first problem of a text that does not parse, in one line. */
export function parseProblem(docs: readonly Document.Parsed[]): string | null {
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) return error.message.split('\n')[0]!.replace(/:$/, '');
  }
  return null;
}

/** Opens the text's Pipeline for editing, or says why it cannot be. */
export function openPipeline(text: string): OpenPipeline | EditFailure {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.length === 0) return fail('noPipeline');
  const problem = parseProblem(docs);
  if (problem) return fail('unreadable', { message: problem });
  const maps = docs.filter((d) => isMap(d.contents));
  const doc = maps.find((d) => (d.contents as YAMLMap).get('kind') === 'Pipeline') ?? maps[0];
  if (!doc) return fail('noPipeline');
  return { ok: true, docs, doc, root: doc.contents as YAMLMap, json: isJson(text), options: styleOf(text) };
}

function written(open: Pick<OpenPipeline, 'docs' | 'json' | 'options'>, text: string): string {
  if (open.json) {
    const indent = /\n( +)"/.exec(text)?.[1]?.length ?? 2;
    const end = text.endsWith('\n') ? '\n' : '';
    return JSON.stringify(open.docs[0]!.toJS(), null, indent) + end;
  }
  return open.docs.map((d) => d.toString(open.options)).join('');
}

/** What a text holds, to compare two texts by meaning. */
function valueOf(text: string): string | null {
  try {
    const docs = parseAllDocuments(text);
    return parseProblem(docs) ? null : JSON.stringify(docs.map((d) => d.toJS() as unknown));
  } catch {
    return null;
  }
}

/**
 * Runs `edit` on the text's Pipeline and writes the result back with the rest of the text as it
 * was. `edit` answers a failure, or nothing when it changed the document.
 */
export function editPipeline(text: string, edit: (open: OpenPipeline) => EditFailure | void): EditResult {
  const open = openPipeline(text);
  if (!open.ok) return open;
  const base = written(open, text);
  const refused = edit(open);
  if (refused) return refused;
  const edited = written(open, text);
  const merged = mergeEdit(text, base, edited);
  // the merge is kept only when it reads back as what the edit made
  const out =
    merged !== null && valueOf(merged) !== null && valueOf(merged) === valueOf(edited) ? merged : edited;
  return { ok: true, text: out };
}

/** The Pipeline's `spec` mapping, made when `create` and missing. */
export function specOf(open: Pick<OpenPipeline, 'doc' | 'root'>, create = false): YAMLMap | null {
  const spec = open.root.get('spec');
  if (isMap(spec)) return spec;
  if (!create || (spec !== undefined && spec !== null)) return null;
  const made = open.doc.createNode({}) as YAMLMap;
  open.root.set('spec', made);
  return made;
}

/** Every task of the pipeline, `tasks` then `finally`. */
export function tasksOf(spec: YAMLMap | null): TaskNode[] {
  if (!spec) return [];
  const out: TaskNode[] = [];
  for (const [key, isFinally] of [
    ['tasks', false],
    ['finally', true],
  ] as const) {
    const list = spec.get(key);
    if (!isSeq(list)) continue;
    for (const item of list.items)
      if (isMap(item)) {
        const name = item.get('name');
        out.push({ node: item, name: typeof name === 'string' ? name : String(name ?? ''), isFinally, list });
      }
  }
  return out;
}

/** The strings of a sequence (a `runAfter`), or [] when it is not one. */
export function stringsOf(value: unknown): string[] {
  if (!isSeq(value)) return [];
  return value.items.map((i) => (isScalar(i) ? String(i.value) : '')).filter(Boolean);
}
