import { yamlLanguage } from '@codemirror/lang-yaml';
import { isRecord, pipelineSpecOf, valueAfterColon, type Value } from './definition-parse';

/**
 * The form view of a pipeline's params, kept in sync with its YAML (or JSON): `readParams`
 * takes them out of the text, `writeParams` puts an edited list back, touching only the
 * `spec.params` block so the rest of the text stays as the user wrote it.
 */
export const PARAM_TYPES = ['string', 'array', 'object'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];
export type ParamDefault = string | string[] | Record<string, string>;

export interface ParamSpec {
  name: string;
  type: ParamType;
  description: string;
  /** undefined: no default, so a run must give it */
  default?: ParamDefault;
}

function toDefault(v: Value | undefined): ParamDefault | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]),
  );
}

/** The declared params of the text's Pipeline; null when the text cannot be read. */
export function readParams(text: string): ParamSpec[] | null {
  const spec = pipelineSpecOf(text);
  if (!spec) return null;
  const list = Array.isArray(spec.params) ? spec.params.filter(isRecord) : [];
  return list.map((p) => {
    const def = toDefault(p.default);
    const declared = typeof p.type === 'string' && (PARAM_TYPES as readonly string[]).includes(p.type);
    const type: ParamType = declared
      ? (p.type as ParamType)
      : Array.isArray(def)
        ? 'array'
        : def !== undefined && typeof def === 'object'
          ? 'object'
          : 'string';
    return {
      name: typeof p.name === 'string' ? p.name : '',
      type,
      description: typeof p.description === 'string' ? p.description : '',
      ...(def !== undefined ? { default: def } : {}),
    };
  });
}

const PLAIN = /^[A-Za-z0-9_/$.(][A-Za-z0-9 _./:$()[\]*-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|[-+]?[0-9.]+(e[-+]?[0-9]+)?)$/i;

/** A scalar as YAML: plain when that reads back the same, double-quoted otherwise. */
export function yamlScalar(s: string): string {
  return PLAIN.test(s) && !s.endsWith(' ') && !RESERVED.test(s) && !s.includes(': ') && !s.includes(' #')
    ? s
    : JSON.stringify(s);
}

function paramsYaml(params: ParamSpec[], indent: number): string {
  const pad = ' '.repeat(indent);
  if (params.length === 0) return `${pad}params: []`;
  const lines = [`${pad}params:`];
  for (const p of params) {
    lines.push(`${pad}  - name: ${yamlScalar(p.name)}`, `${pad}    type: ${p.type}`);
    if (p.description) lines.push(`${pad}    description: ${yamlScalar(p.description)}`);
    const d = p.default;
    if (d === undefined) continue;
    if (typeof d === 'string') lines.push(`${pad}    default: ${yamlScalar(d)}`);
    else if (Array.isArray(d)) lines.push(`${pad}    default: [${d.map(yamlScalar).join(', ')}]`);
    else
      lines.push(
        `${pad}    default: {${Object.entries(d)
          .map(([k, v]) => `${yamlScalar(k)}: ${yamlScalar(v)}`)
          .join(', ')}}`,
      );
  }
  return lines.join('\n');
}

function jsonParam(p: ParamSpec) {
  return {
    name: p.name,
    type: p.type,
    ...(p.description ? { description: p.description } : {}),
    ...(p.default !== undefined ? { default: p.default } : {}),
  };
}

/** The text with its Pipeline's `spec.params` replaced by `params`; null when it cannot be done. */
export function writeParams(text: string, params: ParamSpec[]): string | null {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      const doc = JSON.parse(text) as { spec?: Record<string, unknown> };
      if (!doc.spec || typeof doc.spec !== 'object') return null;
      doc.spec.params = params.map(jsonParam);
      return `${JSON.stringify(doc, null, 2)}\n`;
    } catch {
      // YAML in flow style: go on below
    }
  }
  const tree = yamlLanguage.parser.parse(text);
  for (const doc of tree.topNode.getChildren('Document')) {
    const top = doc.getChild('BlockMapping');
    if (!top) continue;
    const pairs = top.getChildren('Pair');
    const kind = pairs.find((p) => text.slice(p.getChild('Key')!.from, p.getChild('Key')!.to) === 'kind');
    const kindValue = kind ? valueAfterColon(kind) : null;
    if (!kindValue || text.slice(kindValue.from, kindValue.to).replace(/["']/g, '') !== 'Pipeline') continue;
    const specPair = pairs.find((p) => text.slice(p.getChild('Key')!.from, p.getChild('Key')!.to) === 'spec');
    const spec = specPair ? valueAfterColon(specPair) : null;
    if (!spec || spec.name !== 'BlockMapping') return null;
    const specPairs = spec.getChildren('Pair');
    const column = (pos: number) => pos - text.lastIndexOf('\n', pos - 1) - 1;
    const existing = specPairs.find(
      (p) => text.slice(p.getChild('Key')!.from, p.getChild('Key')!.to) === 'params',
    );
    if (existing) {
      const indent = column(existing.from);
      return text.slice(0, existing.from - indent) + paramsYaml(params, indent) + text.slice(existing.to);
    }
    const first = specPairs[0];
    if (!first) return null;
    const indent = column(first.from);
    const at = first.from - indent;
    return `${text.slice(0, at)}${paramsYaml(params, indent)}\n${text.slice(at)}`;
  }
  return null;
}
