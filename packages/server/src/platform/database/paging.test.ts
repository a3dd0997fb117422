import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { likePattern, pageOf, sortColumn, sortOf, totalOf, withTotalCount } from './paging.js';

describe('paging', () => {
  it('asks for rows _start to _end', () => {
    const page = pageOf({ _start: 20, _end: 30, _order: 'DESC' }, sql`name`);
    expect({ offset: page.offset, limit: page.limit }).toEqual({ offset: 20, limit: 10 });
  });

  it('reads the count, as a number, and 0 without a row', () => {
    expect(totalOf([{ n: '7' }])).toBe(7);
    expect(totalOf([])).toBe(0);
  });

  it('accepts a known _sort and refuses another with the choices', () => {
    expect(sortOf('email', { email: 1, name: 2 })).toBe('email');
    expect(() => sortOf('age', { email: 1, name: 2 })).toThrow('_sort must be one of email, name');
    expect(() => sortOf('constructor', { email: 1 })).toThrow('_sort must be one of email');
  });

  it("sorts on a store's own column only, else on its fallback", () => {
    const sorts = { name: 'n', createdAt: 'c' };
    expect(sortColumn(sorts, 'createdAt', 'n')).toBe('c');
    expect(sortColumn(sorts, 'constructor', 'n')).toBe('n');
    expect(sortColumn(sorts, '__proto__', 'n')).toBe('n');
    expect(sortColumn(sorts, undefined, 'n')).toBe('n');
  });

  it('puts the total in X-Total-Count and answers the rows', () => {
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => (headers[name] = value) };
    expect(withTotalCount(reply, ['a', 'b'], 12)).toEqual(['a', 'b']);
    expect(headers).toEqual({ 'X-Total-Count': '12' });
    withTotalCount(reply, ['a']);
    expect(headers['X-Total-Count']).toBe('1');
  });

  it('takes %, _ and \\ literally in a LIKE pattern', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
