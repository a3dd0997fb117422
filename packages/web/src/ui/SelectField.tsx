import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { selectOptions } from './select-options';

/** One choice of a `SelectField`. */
export interface SelectOption {
  value: string;
  label: ReactNode;
}

/** The choices of rows that have an id and a name (workspaces, roles). */
export const namedOptions = (rows: readonly { id: string; name: string }[]): SelectOption[] =>
  rows.map((r) => ({ value: r.id, label: r.name }));

/**
 * A text field that picks one of `options` (MUI's select, its items made by `selectOptions`);
 * `none` is an empty first choice.
 */
export function SelectField({
  options,
  none,
  ...props
}: TextFieldProps & { options: readonly SelectOption[]; none?: ReactNode }) {
  return (
    <TextField {...props} select>
      {none === undefined ? null : <MenuItem value="">{none}</MenuItem>}
      {selectOptions(options, (o) => [o.value, o.label])}
    </TextField>
  );
}
