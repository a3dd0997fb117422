import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useClientSort } from './useClientSort';

const rows = [
  { name: 'b10', used: '2025-01-02' },
  { name: 'a', used: null },
  { name: 'b9', used: '2025-01-03' },
];

describe('useClientSort', () => {
  it('sorts by the header’s column both ways, numbers in names as numbers, empties last', () => {
    const values = { name: (r: (typeof rows)[number]) => r.name, used: (r: (typeof rows)[number]) => r.used };
    const { result } = renderHook(() => useClientSort(rows, values));
    expect(result.current.rows).toBe(rows);
    act(() => result.current.table.onSortChange({ key: 'name', order: 'asc' }));
    expect(result.current.rows!.map((r) => r.name)).toEqual(['a', 'b9', 'b10']);
    act(() => result.current.table.onSortChange({ key: 'used', order: 'desc' }));
    expect(result.current.rows!.map((r) => r.name)).toEqual(['b9', 'b10', 'a']);
    act(() => result.current.table.onSortChange({ key: 'used', order: 'asc' }));
    expect(result.current.rows!.map((r) => r.name)).toEqual(['b10', 'b9', 'a']);
  });
});
