import { describe, expect, it } from 'vitest';
import { readParams, writeParams, yamlScalar, type ParamSpec } from './definition-params';
import { defaultText, parseDefault } from './ParamsForm';
import { diagnosticsOf, offsetOf } from '../../ui/yaml-diagnostics';

const YAML = `# leading comment
apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: hello
spec:
  description: two tasks
  params:
    - name: greeting
      type: string
      default: Hello
    - name: targets
      type: array
      default: [a, b]
    - name: labels
      type: object
      default: {team: core}
    - name: sha
  tasks:
    - name: build
      taskSpec:
        steps: [{ name: s, image: alpine, script: "echo $(params.greeting)" }]
`;

describe('the params form view', () => {
  it('reads the declared params with their types and defaults', () => {
    expect(readParams(YAML)).toEqual([
      { name: 'greeting', type: 'string', description: '', default: 'Hello' },
      { name: 'targets', type: 'array', description: '', default: ['a', 'b'] },
      { name: 'labels', type: 'object', description: '', default: { team: 'core' } },
      { name: 'sha', type: 'string', description: '' },
    ]);
    expect(readParams('kind: Task\nspec: {}\n')).toEqual([]);
    expect(readParams(': : :')).toBeNull();
  });

  it('writes an edited list back into spec.params only, and reads back the same', () => {
    const edited: ParamSpec[] = [
      { name: 'greeting', type: 'string', description: 'What to say: loud', default: 'Hi there' },
      { name: 'targets', type: 'array', description: '', default: ['x y', 'true'] },
      { name: 'labels', type: 'object', description: '', default: { 'a b': 'c', d: '' } },
      { name: 'sha', type: 'string', description: '' },
    ];
    const text = writeParams(YAML, edited)!;
    expect(readParams(text)).toEqual(edited);
    // everything outside spec.params is as it was
    expect(text.startsWith(YAML.slice(0, YAML.indexOf('  params:')))).toBe(true);
    expect(text.endsWith(YAML.slice(YAML.indexOf('  tasks:')))).toBe(true);
    expect(text).toContain(
      '    - name: greeting\n      type: string\n      description: "What to say: loud"',
    );
  });

  it('adds a params block to a pipeline that had none, and empties one', () => {
    const none = 'kind: Pipeline\nspec:\n  tasks:\n    - name: a\n';
    const added = writeParams(none, [{ name: 'p', type: 'string', description: '' }])!;
    expect(added).toBe(
      'kind: Pipeline\nspec:\n  params:\n    - name: p\n      type: string\n  tasks:\n    - name: a\n',
    );
    expect(readParams(writeParams(added, [])!)).toEqual([]);
  });

  it('edits JSON definitions as JSON and refuses what it cannot edit', () => {
    const json = JSON.stringify({ kind: 'Pipeline', spec: { tasks: [] } });
    const text = writeParams(json, [{ name: 'p', type: 'array', description: '', default: ['1'] }])!;
    expect(JSON.parse(text)).toEqual({
      kind: 'Pipeline',
      spec: { tasks: [], params: [{ name: 'p', type: 'array', default: ['1'] }] },
    });
    expect(writeParams('kind: Pipeline\nspec: {tasks: []}\n', [])).toBeNull();
  });

  it('quotes only the scalars that need it', () => {
    expect(yamlScalar('Hello')).toBe('Hello');
    expect(yamlScalar('$(params.x)')).toBe('$(params.x)');
    expect(['true', '42', 'a: b', '', ' x', '#c', 'x #y'].map(yamlScalar)).toEqual([
      '"true"',
      '"42"',
      '"a: b"',
      '""',
      '" x"',
      '"#c"',
      '"x #y"',
    ]);
  });

  it('turns form text into defaults of each type and back', () => {
    expect(parseDefault('', 'string')).toBeUndefined();
    expect(parseDefault('a\nb', 'array')).toEqual(['a', 'b']);
    expect(parseDefault('k=v=w\n\nx', 'object')).toEqual({ k: 'v=w', x: '' });
    expect(defaultText({ k: 'v' })).toBe('k=v');
    expect(defaultText(['a', 'b'])).toBe('a\nb');
  });
});

describe('validation issues as diagnostics', () => {
  it('takes line and column from each detail, the first line otherwise', () => {
    expect(
      diagnosticsOf('spec.tasks[1] (line 9, column 7): cycle', [
        { path: 'spec.tasks[1].runAfter (line 9, column 7)', message: 'a cycle: a → b → a [cycle]' },
        { path: 'document 2: spec.steps', message: 'steps is required [required]' },
      ]),
    ).toEqual([
      { line: 9, column: 7, message: 'spec.tasks[1].runAfter: a cycle: a → b → a [cycle]' },
      { line: 1, column: 1, message: 'document 2: spec.steps: steps is required [required]' },
    ]);
    expect(diagnosticsOf('definition (line 3, column 2): bad indentation', [])).toEqual([
      { line: 3, column: 2, message: 'definition (line 3, column 2): bad indentation' },
    ]);
    // the request's own field names no place in the text: only the rule is said
    expect(
      diagnosticsOf('body.definition: Definition is required', [
        { path: 'body.definition', message: 'Definition is required' },
      ]),
    ).toEqual([{ line: 1, column: 1, message: 'Definition is required' }]);
  });

  it('finds the offset of a line and column, clamped to the text', () => {
    const text = 'ab\ncde\nf';
    expect(offsetOf(text, 2, 2)).toBe(4);
    expect(offsetOf(text, 9, 9)).toBe(text.length);
    expect(offsetOf(text, 0, 0)).toBe(0);
  });
});
