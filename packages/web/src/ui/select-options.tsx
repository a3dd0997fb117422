import MenuItem from '@mui/material/MenuItem';
import type { ReactNode } from 'react';

/** A select's options, one `MenuItem` an item: `option(item)` gives its value and what it shows. */
export function selectOptions<T>(
  items: readonly T[] | undefined,
  option: (item: T) => [value: string, label: ReactNode],
): ReactNode[] {
  return (items ?? []).map((item) => {
    const [value, label] = option(item);
    return (
      <MenuItem key={value} value={value}>
        {label}
      </MenuItem>
    );
  });
}
