import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import { formatPath, pathSegments, type DefinitionIssue } from '../pipelines/definition/index.js';

/** One non-empty document of a YAML stream, as plain values, with where its nodes are. */
export interface StreamDocument {
  /** 0-based among the stream's non-empty documents (as DefinitionIssue.document counts) */
  index: number;
  value: unknown;
  doc: Document;
}

export type ReadStream =
  { ok: true; documents: StreamDocument[]; lines: LineCounter } | { ok: false; errors: DefinitionIssue[] };

/** A YAML (or JSON) stream's non-empty documents; syntax errors name line and column. */
export function readStream(text: string): ReadStream {
  const lines = new LineCounter();
  const all = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const list = Array.isArray(all) ? all : [];
  const errors: DefinitionIssue[] = list.flatMap((doc, document) =>
    doc.errors.map((error) => {
      const { line, col } = lines.linePos(error.pos[0]);
      const message = `line ${line}, column ${col}: ${error.message.split('\n')[0]}`;
      return { path: '', rule: 'yaml-syntax', message, document, line, column: col };
    }),
  );
  if (errors.length > 0) return { ok: false, errors };
  const documents = list
    .filter((doc) => doc.contents !== null && doc.toJS() !== null)
    .map((doc, index) => ({ index, doc, value: doc.toJS() as unknown }));
  return { ok: true, documents, lines };
}

/** The issue with the line and column of what its path names (or of the nearest thing above it). */
export function placeIssue(
  issue: DefinitionIssue,
  document: StreamDocument,
  lines: LineCounter,
): DefinitionIssue {
  const path = pathSegments(issue.path);
  for (let length = path.length; length >= 0; length -= 1) {
    const node = document.doc.getIn(path.slice(0, length) as unknown[], true) as {
      range?: [number, number, number];
    };
    if (node && typeof node === 'object' && node.range) {
      const { line, col } = lines.linePos(node.range[0]);
      return { ...issue, document: document.index, line, column: col };
    }
  }
  return { ...issue, document: document.index };
}

/** A zod issue as a definition issue at its path. */
export function schemaIssue(issue: { path: PropertyKey[]; message: string; code?: string }): DefinitionIssue {
  const last = issue.path[issue.path.length - 1];
  const missing = issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
  return {
    path: formatPath(issue.path),
    rule: 'schema',
    message: missing
      ? `${typeof last === 'number' ? `item ${last}` : String(last ?? 'value')} is required`
      : issue.message,
  };
}

/**
 * A copy of the text with the given document's characters blanked (newlines kept), so the rest
 * of the stream can be read by the definition parser with every line and column where it was.
 */
export function blankDocument(text: string, document: StreamDocument): string {
  const [from, , to] = document.doc.range ?? [0, 0, 0];
  return text.slice(0, from) + text.slice(from, to).replace(/[^\n]/g, ' ') + text.slice(to);
}
