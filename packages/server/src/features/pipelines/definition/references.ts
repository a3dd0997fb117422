import { formatPath } from './definition-issue.js';

/** How a reference picks into a value: `[*]` (all of it), `[2]` (one element), `.key` (an object key). */
export type Selector = { kind: 'star' } | { kind: 'index'; index: number } | { kind: 'key'; key: string };

/** A parsed Tekton `$(...)` variable. `raw` is the whole `$(...)` text as written. */
export type Reference =
  | { kind: 'param'; raw: string; name: string; selector?: Selector }
  | {
      kind: 'taskResult';
      raw: string;
      task: string;
      result: string;
      selector?: Selector;
      /** Written `$(finally.<t>.results.<r>)`: a finally task's result, read by pipeline results only. */
      finally?: true;
    }
  | { kind: 'taskStatus'; raw: string; task: string }
  | { kind: 'taskReason'; raw: string; task: string }
  | { kind: 'tasksStatus'; raw: string }
  | { kind: 'matrixLength'; raw: string; task: string; result?: string }
  | { kind: 'resultPath'; raw: string; result: string }
  | { kind: 'workspace'; raw: string; workspace: string; property: 'path' | 'bound' | 'claim' | 'volume' }
  | { kind: 'context'; raw: string; variable: string }
  /** `$(step.results.r.path)`, `$(steps.s.results.r…)`, `$(steps.step-s.exitCode.path)`, `$(credentials.path)`: the executor fills them when the step runs. */
  | { kind: 'stepResultPath'; raw: string; result: string }
  | { kind: 'stepResult'; raw: string; step: string; result: string; selector?: Selector }
  | { kind: 'stepExitCodePath'; raw: string; step: string }
  | { kind: 'credentialsPath'; raw: string }
  | { kind: 'unsupported'; raw: string; message: string };

/** Roots Tekton owns. Anything else in `$(...)`, like `$(date +%s)` or `$(HOME)`, is left alone. */
const TEKTON_ROOTS = new Set([
  'params',
  'tasks',
  'finally',
  'results',
  'workspaces',
  'context',
  'steps',
  'step',
  'credentials',
  'resources',
  'inputs',
  'outputs',
]);

const REFERENCE = /\$\(((?:[^()\s'"]|'[^']*'|"[^"]*")+)\)/g;

type Token = { name: string } | { index: number } | { star: true };

function tokenize(expression: string): Token[] | null {
  const tokens: Token[] = [];
  let pos = 0;
  const readName = () => {
    const match = /^[^.[\]]+/.exec(expression.slice(pos));
    if (!match) return false;
    tokens.push({ name: match[0] });
    pos += match[0].length;
    return true;
  };
  if (!readName()) return null;
  while (pos < expression.length) {
    const ch = expression[pos];
    if (ch === '.') {
      pos += 1;
      if (!readName()) return null;
      continue;
    }
    if (ch !== '[') return null;
    const rest = expression.slice(pos);
    const bracket = /^\[(?:(\*)|(\d+)|'([^']*)'|"([^"]*)")\]/.exec(rest);
    if (!bracket) return null;
    if (bracket[1]) tokens.push({ star: true });
    else if (bracket[2] !== undefined) tokens.push({ index: Number(bracket[2]) });
    else tokens.push({ name: bracket[3] ?? bracket[4] ?? '' });
    pos += bracket[0].length;
  }
  return tokens;
}

const nameOf = (token: Token | undefined) => (token && 'name' in token ? token.name : undefined);

function selectorOf(tokens: Token[]): Selector | undefined | null {
  if (tokens.length === 0) return undefined;
  if (tokens.length > 1) return null;
  const token = tokens[0]!;
  if ('star' in token) return { kind: 'star' };
  if ('index' in token) return { kind: 'index', index: token.index };
  return { kind: 'key', key: token.name };
}

function interpret(raw: string, root: string, tokens: Token[]): Reference {
  const malformed = (): Reference => ({ kind: 'unsupported', raw, message: `malformed reference ${raw}` });
  const [, first, second, third] = tokens.map(nameOf);
  switch (root) {
    case 'params': {
      const selector = selectorOf(tokens.slice(2));
      if (!first || selector === null) return malformed();
      return { kind: 'param', raw, name: first, ...(selector ? { selector } : {}) };
    }
    case 'inputs':
      // the v1alpha1 spelling Tekton still substitutes: $(inputs.params.x) is $(params.x)
      if (first === 'params') return interpret(raw, 'params', tokens.slice(1));
      return {
        kind: 'unsupported',
        raw,
        message: `${raw} is not supported (inputs variables other than params)`,
      };
    case 'finally': {
      const selector = selectorOf(tokens.slice(4));
      if (!first || second !== 'results' || !third || selector === null) return malformed();
      return {
        kind: 'taskResult',
        raw,
        task: first,
        result: third,
        finally: true,
        ...(selector ? { selector } : {}),
      };
    }
    case 'tasks': {
      if (first === 'status' && tokens.length === 2) return { kind: 'tasksStatus', raw };
      if (!first) return malformed();
      if (second === 'status' && tokens.length === 3) return { kind: 'taskStatus', raw, task: first };
      if (second === 'reason' && tokens.length === 3) return { kind: 'taskReason', raw, task: first };
      if (second === 'matrix') {
        if (third === 'length' && tokens.length === 4) return { kind: 'matrixLength', raw, task: first };
        if (third && nameOf(tokens[4]) === 'length' && tokens.length === 5)
          return { kind: 'matrixLength', raw, task: first, result: third };
        return malformed();
      }
      const selector = selectorOf(tokens.slice(4));
      if (second !== 'results' || !third || selector === null) return malformed();
      return { kind: 'taskResult', raw, task: first, result: third, ...(selector ? { selector } : {}) };
    }
    case 'results':
      if (!first || second !== 'path' || tokens.length !== 3) return malformed();
      return { kind: 'resultPath', raw, result: first };
    case 'workspaces':
      if (!first || tokens.length !== 3) return malformed();
      if (second === 'path' || second === 'bound' || second === 'claim' || second === 'volume')
        return { kind: 'workspace', raw, workspace: first, property: second };
      return malformed();
    case 'context':
      if (!first || !second || tokens.length !== 3) return malformed();
      return { kind: 'context', raw, variable: `${first}.${second}` };
    case 'step':
      if (first !== 'results' || !second || third !== 'path' || tokens.length !== 4) return malformed();
      return { kind: 'stepResultPath', raw, result: second };
    case 'steps': {
      if (!first) return malformed();
      if (second === 'exitCode' && third === 'path' && tokens.length === 4)
        return { kind: 'stepExitCodePath', raw, step: first };
      const selector = selectorOf(tokens.slice(4));
      if (second !== 'results' || !third || selector === null) return malformed();
      return { kind: 'stepResult', raw, step: first, result: third, ...(selector ? { selector } : {}) };
    }
    case 'credentials':
      if (first !== 'path' || tokens.length !== 2) return malformed();
      return { kind: 'credentialsPath', raw };
    default:
      return { kind: 'unsupported', raw, message: `${raw} is not supported (${root} variables)` };
  }
}

/** Parses one reference expression (the text inside `$(...)`), or null when it is not Tekton's. */
export function parseReference(raw: string, expression: string): Reference | null {
  const tokens = tokenize(expression);
  const root = tokens ? nameOf(tokens[0]) : /^[A-Za-z]+/.exec(expression)?.[0];
  if (!root || !TEKTON_ROOTS.has(root)) return null;
  if (!tokens) return { kind: 'unsupported', raw, message: `malformed reference ${raw}` };
  // Tekton substitutes these context objects only; `$(context.other.x)` stays text, as there
  if (root === 'context' && !CONTEXT_OBJECTS.has(nameOf(tokens[1]) ?? '')) return null;
  return interpret(raw, root, tokens);
}

const CONTEXT_OBJECTS = new Set(['pipelineRun', 'pipeline', 'pipelineTask', 'taskRun', 'task']);

/** Every Tekton reference in a string, in order of appearance. */
export function findReferences(text: string): Reference[] {
  const found: Reference[] = [];
  if (!text.includes('$(')) return found;
  for (const match of text.matchAll(REFERENCE)) {
    const reference = parseReference(match[0], match[1]!);
    if (reference) found.push(reference);
  }
  return found;
}

/** Replaces each Tekton reference in `text` with what `replace` returns for it. */
export function replaceReferences(text: string, replace: (reference: Reference) => string): string {
  return text.replace(REFERENCE, (whole, expression: string) => {
    const reference = parseReference(whole, expression);
    return reference ? replace(reference) : whole;
  });
}

/** The reference when `text` is exactly one `$(...)` and nothing else, e.g. `$(params.args[*])`. */
export function wholeReference(text: string): Reference | null {
  const match = /^\$\(([^()]+)\)$/.exec(text);
  return match ? parseReference(text, match[1]!) : null;
}

/** Every string inside a value with its path, e.g. `{ path: 'params[0].value', text: '$(params.x)' }`. */
export function walkStrings(value: unknown, base: PropertyKey[] = []): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  // the path is built as a string on the way down: a 200-task pipeline has tens of thousands
  const walk = (item: unknown, path: string) => {
    if (typeof item === 'string') found.push({ path, text: item });
    else if (Array.isArray(item)) item.forEach((element, i) => walk(element, `${path}[${i}]`));
    else if (item && typeof item === 'object')
      for (const [key, element] of Object.entries(item)) walk(element, path === '' ? key : `${path}.${key}`);
  };
  walk(value, formatPath(base));
  return found;
}

/** Every string inside a value, without paths (cheaper where only the text matters). */
export function eachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const item of value) eachString(item, visit);
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) eachString(item, visit);
}
