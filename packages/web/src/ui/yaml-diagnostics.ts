import { errorResponseSchema } from '@slipway/contracts';
import type { ApiError } from './api-error';

/**
 * The server refuses an invalid definition with a message and one detail per issue, each
 * naming the path and, where it knows it, "(line L, column C)". These become the editor's
 * inline diagnostics: one per issue, at its line and column (the first line when none is given).
 */
export interface DefinitionDiagnostic {
  line: number;
  column: number;
  /** where the issue is and what is wrong, as the server said it */
  message: string;
}

const AT = /\(line (\d+), column (\d+)\)/;

export function diagnosticsOf(
  message: string | null,
  details: readonly { path: string; message: string }[],
): DefinitionDiagnostic[] {
  const out: DefinitionDiagnostic[] = [];
  for (const d of details) {
    const m = AT.exec(d.path);
    // a path in the definition names where; the request's own part (body.definition) names nothing
    const where = d.path
      .replace(AT, '')
      .replace(/^(body|query|querystring|params)[./]definition\b[./]?/, '')
      .trim();
    out.push({
      line: m ? Number(m[1]) : 1,
      column: m ? Number(m[2]) : 1,
      message: where ? `${where}: ${d.message}` : d.message,
    });
  }
  if (out.length === 0 && message) {
    const m = AT.exec(message);
    out.push({ line: m ? Number(m[1]) : 1, column: m ? Number(m[2]) : 1, message });
  }
  return out;
}

/** A diagnostic's place as an offset in the text (lines and columns count from 1, clamped). */
export function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  const l = Math.min(Math.max(line, 1), lines.length);
  let offset = 0;
  for (let i = 0; i < l - 1; i++) offset += lines[i]!.length + 1;
  return offset + Math.min(Math.max(column - 1, 0), lines[l - 1]!.length);
}

const NOT_DEFINITION = /^(\/|body[./])?(name|description|rollbackPipelineId)\b/;

/** The server's issues with a refused definition (a 400), as inline editor diagnostics. */
export function definitionDiagnostics(error: ApiError): DefinitionDiagnostic[] {
  if (!error || !('status' in error) || error.status !== 400) return [];
  const body = errorResponseSchema.safeParse(error.data);
  if (!body.success) return [];
  const all = body.data.details ?? [];
  const details = all.filter((d) => !NOT_DEFINITION.test(d.path));
  if (all.length > 0 && details.length === 0) return [];
  return diagnosticsOf(body.data.message, details);
}
