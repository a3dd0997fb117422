import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { z } from 'zod';
import { formatPath, type DefinitionIssue } from './definition-issue.js';
import {
  pipelineRunSchema,
  pipelineSchema,
  taskSchema,
  TEKTON_API_VERSION,
  TEKTON_KINDS,
  TEKTON_V1BETA1,
  type Pipeline,
  type PipelineRun,
  type Task,
  type TektonDocument,
  type TektonKind,
} from './model.js';
import { normaliseV1beta1 } from './v1beta1.js';
import { STEP_ACTION_API_VERSIONS, stepActionSchema, type StepAction } from './step-action.js';

export type ParsedDefinition =
  | {
      ok: true;
      /** Every document, in order, normalised to tekton.dev/v1. */
      documents: TektonDocument[];
      tasks: Task[];
      pipeline?: Pipeline;
      pipelineRun?: PipelineRun;
      /** StepActions (tekton.dev/v1beta1 or v1alpha1) the Tasks of the text may reference. */
      stepActions: StepAction[];
      /** Notes that did not stop parsing (e.g. a v1beta1 document read as v1). */
      warnings: DefinitionIssue[];
    }
  | { ok: false; errors: DefinitionIssue[] };

const SCHEMAS = {
  Task: taskSchema,
  Pipeline: pipelineSchema,
  PipelineRun: pipelineRunSchema,
  StepAction: stepActionSchema,
} as const;

const isStepActionVersion = (apiVersion: unknown) =>
  (STEP_ACTION_API_VERSIONS as readonly unknown[]).includes(apiVersion);

/** Type guard: an object carrying a supported Tekton apiVersion and kind. */
export function isTektonObject(value: unknown): value is { apiVersion: string; kind: TektonKind } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { apiVersion, kind } = value as Record<string, unknown>;
  if (kind === 'StepAction') return isStepActionVersion(apiVersion);
  return (
    (apiVersion === TEKTON_API_VERSION || apiVersion === TEKTON_V1BETA1) &&
    TEKTON_KINDS.includes(kind as TektonKind)
  );
}

type Position = { line?: number; column?: number };

function positionOf(doc: Document, lines: LineCounter, path: PropertyKey[]): Position {
  for (let length = path.length; length >= 0; length -= 1) {
    const node = doc.getIn(path.slice(0, length) as unknown[], true) as { range?: [number, number, number] };
    if (node && typeof node === 'object' && node.range) {
      const { line, col } = lines.linePos(node.range[0]);
      return { line, column: col };
    }
  }
  return {};
}

function friendly(issue: z.core.$ZodIssue): string {
  const last = issue.path[issue.path.length - 1];
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined'))
    return `${typeof last === 'number' ? `item ${last}` : String(last ?? 'value')} is required`;
  return issue.message;
}

function checkShape(value: unknown): DefinitionIssue | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      path: '',
      rule: 'not-tekton',
      message: 'a document must be a Tekton object with apiVersion and kind',
    };
  const { apiVersion, kind } = value as Record<string, unknown>;
  if (kind === 'StepAction' && !isStepActionVersion(apiVersion))
    return {
      path: 'apiVersion',
      rule: 'api-version',
      message: `apiVersion ${JSON.stringify(apiVersion ?? null)} is not supported for a StepAction: use ${STEP_ACTION_API_VERSIONS.join(' or ')}`,
    };
  if (kind !== 'StepAction' && apiVersion !== TEKTON_API_VERSION && apiVersion !== TEKTON_V1BETA1)
    return {
      path: 'apiVersion',
      rule: 'api-version',
      message: `apiVersion ${JSON.stringify(apiVersion ?? null)} is not supported: use ${TEKTON_API_VERSION} (or ${TEKTON_V1BETA1})`,
    };
  if (!TEKTON_KINDS.includes(kind as TektonKind))
    return {
      path: 'kind',
      rule: 'kind',
      message: `kind ${JSON.stringify(kind ?? null)} is not supported: use ${TEKTON_KINDS.join(', ')}`,
    };
  return null;
}

function parseOne(doc: Document, lines: LineCounter, index: number, value: unknown = doc.toJS()) {
  return parseValue(value, index, (issue, path) => ({
    ...issue,
    document: index,
    ...positionOf(doc, lines, path),
  }));
}

/** One document's plain value checked and read; `at` places an issue in the text. */
function parseValue(
  value: unknown,
  index: number,
  at: (issue: DefinitionIssue, path: PropertyKey[]) => DefinitionIssue,
) {
  const errors: DefinitionIssue[] = [];
  const warnings: DefinitionIssue[] = [];
  const shape = checkShape(value);
  if (shape) return { errors: [at(shape, shape.path ? [shape.path] : [])], warnings };
  let raw = value as Record<string, unknown>;
  const kind = raw.kind as TektonKind;
  if (raw.apiVersion === TEKTON_V1BETA1 && kind !== 'StepAction') {
    const normalised = normaliseV1beta1(kind, raw);
    raw = normalised.document;
    const split = (p: string) =>
      p
        .split(/\.|\[(\d+)\]/)
        .filter(Boolean)
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    errors.push(...normalised.errors.map((e) => at(e, split(e.path))));
    warnings.push(...normalised.warnings.map((w) => ({ ...w, document: index })));
  }
  const parsed = SCHEMAS[kind].safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path as PropertyKey[];
      errors.push(at({ path: formatPath(path), rule: 'schema', message: friendly(issue) }, path));
    }
  }
  return { errors, warnings, document: parsed.success ? (parsed.data as TektonDocument) : undefined };
}

function syntaxErrors(docs: Document[], lines: LineCounter): DefinitionIssue[] {
  return docs.flatMap((doc, index) =>
    doc.errors
      .map((error) => {
        const { line, col } = lines.linePos(error.pos[0]);
        const message = `line ${line}, column ${col}: ${error.message.split('\n')[0]}`;
        return { path: '', rule: 'yaml-syntax', message, document: index, line, column: col };
      })
      .sort((a, b) => a.line - b.line || a.column - b.column),
  );
}

function crossDocumentErrors(documents: TektonDocument[]): DefinitionIssue[] {
  const errors: DefinitionIssue[] = [];
  const seen = new Map<string, number>();
  documents.forEach((doc, index) => {
    if (doc.kind !== 'Task' && doc.kind !== 'StepAction') return;
    const key = `${doc.kind} ${doc.metadata.name}`;
    const first = seen.get(key);
    if (first !== undefined)
      errors.push({
        path: 'metadata.name',
        rule: doc.kind === 'Task' ? 'duplicate-task' : 'duplicate-step-action',
        message: `${doc.kind} "${doc.metadata.name}" is defined twice (documents ${first + 1} and ${index + 1})`,
        document: index,
      });
    else seen.set(key, index);
  });
  for (const kind of ['Pipeline', 'PipelineRun'] as const) {
    const indexes = documents.flatMap((doc, i) => (doc.kind === kind ? [i] : []));
    if (indexes.length > 1)
      errors.push({
        path: 'kind',
        rule: 'one-per-definition',
        message: `a definition holds at most one ${kind}, found ${indexes.length}`,
        document: indexes[1]!,
      });
  }
  return errors;
}

/** `spec.tasks[2].runAfter[0]` → `['spec', 'tasks', 2, 'runAfter', 0]`. */
export function pathSegments(path: string): PropertyKey[] {
  const segments: PropertyKey[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    segments.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return segments;
}

/**
 * Gives each issue without a position the line and column of what its path names in the text
 * (or of the nearest thing above it that is there), so an editor marks it where it is rather than
 * on line 1. `document` counts the non-empty documents, as the parsed definition's list does.
 */
export function locateIssues(text: string, issues: DefinitionIssue[]): DefinitionIssue[] {
  if (issues.every((i) => i.line !== undefined)) return issues;
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const present = (Array.isArray(docs) ? docs : []).filter(
    (doc) => doc.contents !== null && doc.toJS() !== null,
  );
  return issues.map((issue) => {
    const doc = present[issue.document ?? 0];
    if (issue.line !== undefined || !doc) return issue;
    return { ...issue, ...positionOf(doc, lines, pathSegments(issue.path)) };
  });
}

/**
 * Parses a definition: YAML or JSON, one document or a YAML stream (`---`) of Tasks plus at most
 * one Pipeline and one PipelineRun. YAML syntax errors name line and column.
 */
export function parseDefinition(text: string): ParsedDefinition {
  return parseFast(text) ?? parseWithPositions(text);
}

const ALIAS = /(^|[\s,[{])\*[^\s,\]}]/m;

/**
 * The plain values of a YAML stream, read by js-yaml with YAML 1.2's core schema (what `yaml`
 * reads too): about seven times faster than building `yaml` Documents, which only an error's line
 * and column need. Null when the text has any problem: the slower path then names it.
 */
function parseFast(text: string): ParsedDefinition | null {
  // aliases (`*name`) go through yaml, which bounds their expansion (a billion laughs); so does
  // anything that merely looks like one, such as a glob in a script
  if (ALIAS.test(text)) return null;
  let values: unknown[];
  try {
    values = loadAll(text, undefined, { schema: CORE_SCHEMA });
  } catch {
    return null;
  }
  const warnings: DefinitionIssue[] = [];
  const documents: TektonDocument[] = [];
  for (const [index, value] of values.entries()) {
    if (value === null || value === undefined) continue;
    const result = parseValue(value, index, (issue) => issue);
    if (result.errors.length > 0 || !result.document) return null;
    warnings.push(...result.warnings);
    documents.push(result.document);
  }
  if (documents.length === 0 || crossDocumentErrors(documents).length > 0) return null;
  return parsedOf(documents, warnings);
}

function parsedOf(documents: TektonDocument[], warnings: DefinitionIssue[]): ParsedDefinition {
  return {
    ok: true,
    documents,
    tasks: documents.filter((d): d is Task => d.kind === 'Task'),
    pipeline: documents.find((d): d is Pipeline => d.kind === 'Pipeline'),
    pipelineRun: documents.find((d): d is PipelineRun => d.kind === 'PipelineRun'),
    stepActions: documents.filter((d): d is StepAction => d.kind === 'StepAction'),
    warnings,
  };
}

/** The definition read through `yaml` Documents, whose errors name line and column. */
export function parseWithPositions(text: string): ParsedDefinition {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  const syntax = syntaxErrors(list, lines);
  if (syntax.length > 0) return { ok: false, errors: syntax };
  let present: { doc: Document; index: number; value: unknown }[];
  try {
    present = list
      .map((doc, index) => ({ doc, index, value: doc.contents === null ? null : (doc.toJS() as unknown) }))
      .filter(({ value }) => value !== null);
  } catch (error) {
    // yaml refuses aliases that expand without bound (a billion laughs)
    const message = `the YAML cannot be read: ${(error as Error).message}`;
    return { ok: false, errors: [{ path: '', rule: 'yaml-syntax', message }] };
  }
  if (present.length === 0)
    return {
      ok: false,
      errors: [
        { path: '', rule: 'empty', message: 'the definition is empty: paste a Tekton Task or Pipeline' },
      ],
    };
  const errors: DefinitionIssue[] = [];
  const warnings: DefinitionIssue[] = [];
  const documents: TektonDocument[] = [];
  for (const { doc, index, value } of present) {
    const result = parseOne(doc, lines, index, value);
    errors.push(...result.errors);
    warnings.push(...result.warnings);
    if (result.document) documents.push(result.document);
  }
  if (errors.length > 0) return { ok: false, errors };
  const cross = crossDocumentErrors(documents);
  if (cross.length > 0) return { ok: false, errors: cross };
  return parsedOf(documents, warnings);
}
