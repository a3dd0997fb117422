import Delete from '@mui/icons-material/Delete';
import IconButton from '@mui/material/IconButton';
import Stack, { type StackProps } from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { Button } from './Button';

/**
 * A list edited in place: each row's fields side by side with a remove button, and an add button
 * under them. `fields(row, set)` draws a row; `set` merges a change into it.
 */
export function EditableRows<R>({
  rows,
  onChange,
  fields,
  newRow,
  addLabel,
  removeLabel,
  rowTestId,
  direction = 'row',
  disabled = false,
  addDisabled = false,
}: {
  rows: R[];
  onChange: (rows: R[]) => void;
  fields: (row: R, set: (next: R) => void) => ReactNode;
  newRow: () => R;
  addLabel: string;
  removeLabel: string;
  rowTestId: string;
  direction?: StackProps['direction'];
  disabled?: boolean;
  addDisabled?: boolean;
}) {
  const replace = (i: number) => (next: R) => onChange(rows.map((r, j) => (j === i ? next : r)));
  return (
    <>
      {rows.map((r, i) => (
        <Stack key={i} direction={direction} spacing={1} alignItems="center" data-testid={rowTestId}>
          {fields(r, replace(i))}
          <IconButton
            aria-label={removeLabel}
            disabled={disabled}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            <Delete />
          </IconButton>
        </Stack>
      ))}
      <div>
        <Button size="small" disabled={disabled || addDisabled} onClick={() => onChange([...rows, newRow()])}>
          {addLabel}
        </Button>
      </div>
    </>
  );
}
