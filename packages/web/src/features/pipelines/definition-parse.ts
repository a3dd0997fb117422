import { yamlLanguage } from '@codemirror/lang-yaml';

/**
 * Reads a pipeline definition (JSON, or YAML with one or more documents) into plain values, with
 * the YAML grammar CodeMirror already ships (no second YAML library in the bundle). Scalars stay
 * strings; what the studio needs from a definition is names, references and params.
 */
type SyntaxNode = ReturnType<typeof yamlLanguage.parser.parse>['topNode'];

export type Value = string | null | Value[] | { [key: string]: Value };

function unquote(raw: string): string {
  if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  try {
    return JSON.parse(raw.replace(/\n\s*/g, ' ')) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

function blockLiteral(node: SyntaxNode, text: string): string {
  const header = node.getChild('BlockLiteralHeader');
  const content = node.getChild('BlockLiteralContent');
  if (!content) return '';
  const lines = text.slice(content.from, content.to).split('\n');
  const indent = Math.min(
    ...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length),
    Number.MAX_SAFE_INTEGER,
  );
  const body = lines.map((l) => l.slice(indent)).join('\n');
  const folded = header && text.slice(header.from, header.to).startsWith('>');
  const out = folded ? body.replace(/([^\n])\n(?=[^\n])/g, '$1 ') : body;
  const keep = header ? text.slice(header.from, header.to) : '';
  if (keep.includes('-')) return out.replace(/\n+$/, '');
  return `${out.replace(/\n+$/, '')}\n`;
}

function valueOf(node: SyntaxNode | null, text: string): Value {
  if (!node) return null;
  switch (node.name) {
    case 'Literal': {
      const raw = text.slice(node.from, node.to).replace(/\s*\n\s*/g, ' ');
      return raw === '~' || raw === 'null' ? null : raw;
    }
    case 'QuotedLiteral':
      return unquote(text.slice(node.from, node.to));
    case 'BlockLiteral':
      return blockLiteral(node, text);
    case 'BlockMapping':
    case 'FlowMapping': {
      const out: Record<string, Value> = {};
      for (const pair of node.getChildren('Pair')) {
        const key = valueOf(pair.getChild('Key')?.firstChild ?? null, text);
        const value = valueAfterColon(pair);
        out[typeof key === 'string' ? key : JSON.stringify(key)] = valueOf(value, text);
      }
      return out;
    }
    case 'BlockSequence':
    case 'FlowSequence':
      return node.getChildren('Item').map((item) => valueOf(item.firstChild, text));
    case 'Tagged':
    case 'Anchored':
    case 'Item':
    case 'Key': {
      let child = node.firstChild;
      while (child && (child.name === 'Tag' || child.name === 'Anchor')) child = child.nextSibling;
      return valueOf(child, text);
    }
    default:
      return null;
  }
}

/** The value node of a Pair: whatever follows its ':'. */
export function valueAfterColon(pair: SyntaxNode): SyntaxNode | null {
  let child = pair.firstChild;
  while (child && child.name !== ':') child = child.nextSibling;
  child = child?.nextSibling ?? null;
  while (child && child.name === 'Comment') child = child.nextSibling;
  return child;
}

/** Every document of a YAML (or JSON) text, as plain values. */
export function parseDocuments(text: string): Value[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const parsed = JSON.parse(text) as Value;
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      // not JSON after all: YAML's flow style
    }
  }
  const tree = yamlLanguage.parser.parse(text);
  return tree.topNode.getChildren('Document').map((doc) => {
    let child = doc.firstChild;
    while (child && (child.name === 'DirectiveEnd' || child.name === 'Comment' || child.name === 'Directive'))
      child = child.nextSibling;
    return valueOf(child, text);
  });
}

function isRecord(v: Value | undefined): v is Record<string, Value> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The spec of the Pipeline document in a definition, or null when there is none. */
export function pipelineSpecOf(text: string): Record<string, Value> | null {
  let docs: Value[];
  try {
    docs = parseDocuments(text);
  } catch {
    return null;
  }
  const pipeline = docs.find((d) => isRecord(d) && d.kind === 'Pipeline') ?? docs.find(isRecord);
  if (!isRecord(pipeline)) return null;
  const spec = pipeline.spec;
  return isRecord(spec) ? spec : null;
}

export { isRecord };
