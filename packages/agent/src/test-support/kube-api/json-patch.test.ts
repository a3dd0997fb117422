import { describe, expect, it } from 'vitest';
import { PatchError, applyJsonPatch } from './json-patch.js';

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as PatchError;
  }
  throw new Error('expected a PatchError');
};

describe('applyJsonPatch (RFC 6902 appendix A)', () => {
  it('adds an object member', () => {
    expect(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }])).toEqual({
      baz: 'qux',
      foo: 'bar',
    });
  });
  it('adds an array element at an index and at the end with -', () => {
    expect(applyJsonPatch({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }])).toEqual({
      foo: ['bar', 'qux', 'baz'],
    });
    expect(applyJsonPatch({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }])).toEqual({
      foo: ['bar', ['abc', 'def']],
    });
  });
  it('removes an object member and an array element', () => {
    expect(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }])).toEqual({
      foo: 'bar',
    });
    expect(applyJsonPatch({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }])).toEqual({
      foo: ['bar', 'baz'],
    });
  });
  it('replaces a value', () => {
    expect(
      applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }]),
    ).toEqual({ baz: 'boo', foo: 'bar' });
  });
  it('moves a value and an array element', () => {
    const doc = { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } };
    expect(applyJsonPatch(doc, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }])).toEqual({
      foo: { bar: 'baz' },
      qux: { corge: 'grault', thud: 'fred' },
    });
    expect(
      applyJsonPatch({ foo: ['all', 'grass', 'cows', 'eat'] }, [
        { op: 'move', from: '/foo/1', path: '/foo/3' },
      ]),
    ).toEqual({
      foo: ['all', 'cows', 'eat', 'grass'],
    });
  });
  it('tests values, and a failed test stops the patch with 422', () => {
    const doc = { baz: 'qux', foo: ['a', 2, 'c'] };
    expect(
      applyJsonPatch(doc, [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ]),
    ).toEqual(doc);
    const err = failure(() => applyJsonPatch({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]));
    expect(err).toBeInstanceOf(PatchError);
    expect(err.code).toBe(422);
    expect(err.message).toBe('testing value /baz failed: test failed');
  });
  it('adds a nested member object and copies', () => {
    expect(
      applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }]),
    ).toEqual({ foo: 'bar', child: { grandchild: {} } });
    expect(applyJsonPatch({ a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }])).toEqual({
      a: { b: 1 },
      c: { b: 1 },
    });
  });
  it('decodes ~1 and ~0 in pointers', () => {
    const doc = { metadata: { annotations: { 'example.com/a~b': 'x' } } };
    expect(
      applyJsonPatch(doc, [{ op: 'replace', path: '/metadata/annotations/example.com~1a~0b', value: 'y' }]),
    ).toEqual({
      metadata: { annotations: { 'example.com/a~b': 'y' } },
    });
  });
  it('does not change its input', () => {
    const doc = { spec: { replicas: 1 } };
    applyJsonPatch(doc, [{ op: 'replace', path: '/spec/replicas', value: 3 }]);
    expect(doc.spec.replicas).toBe(1);
  });
});

describe('applyJsonPatch errors, as the apiserver words them', () => {
  it('adding to a missing parent', () => {
    const err = failure(() =>
      applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]),
    );
    expect(err.message).toBe('add operation does not apply: doc is missing path: "/baz/bat": missing value');
    expect(err.code).toBe(422);
  });
  it('removing a missing key', () => {
    const err = failure(() => applyJsonPatch({ spec: {} }, [{ op: 'remove', path: '/spec/foo' }]));
    expect(err.message).toBe(
      "error in remove for path: '/spec/foo': Unable to remove nonexistent key: foo: missing value",
    );
  });
  it('an index out of range', () => {
    const err = failure(() => applyJsonPatch({ a: [1] }, [{ op: 'add', path: '/a/5', value: 2 }]));
    expect(err.message).toBe(
      "error in add for path: '/a/5': Unable to access invalid index: 5: invalid index referenced",
    );
    const replace = failure(() => applyJsonPatch({ a: [1] }, [{ op: 'replace', path: '/a/3', value: 2 }]));
    expect(replace.message).toBe('replace operation does not apply: doc is missing key: /a/3: missing value');
  });
  it('an unknown op and a body that is not a list', () => {
    expect(failure(() => applyJsonPatch({}, [{ op: 'merge', path: '/a' }])).message).toBe(
      'Unexpected kind: merge',
    );
    const body = failure(() => applyJsonPatch({}, { op: 'add' }));
    expect(body.code).toBe(400);
    expect(body.message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  });
});

describe('applyJsonPatch quirks of json-patch v4 that kubectl relies on', () => {
  it('replace of a missing object key adds it', () => {
    expect(applyJsonPatch({ spec: {} }, [{ op: 'replace', path: '/spec/replicas', value: 2 }])).toEqual({
      spec: { replicas: 2 },
    });
  });
  it('negative indexes count from the end', () => {
    expect(applyJsonPatch({ a: [1, 2, 3] }, [{ op: 'remove', path: '/a/-1' }])).toEqual({ a: [1, 2] });
  });
});
