import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { ChangeEvent, InputHTMLAttributes, ReactNode } from 'react';

export interface TextInputProps {
  id: string;
  name?: string;
  label: ReactNode;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  type?: string;
  error?: boolean;
  helperText?: ReactNode;
  autoComplete?: string;
  autoFocus?: boolean;
  fullWidth?: boolean;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
  endAdornment?: ReactNode;
  /** attributes for the <input> itself (inputMode, maxLength, pattern…) */
  htmlInput?: InputHTMLAttributes<HTMLInputElement>;
}

/**
 * An outlined text field that looks and behaves like MUI's TextField for plain inputs, without
 * TextField's select support (Select, Menu, Popover, Modal): the sign-in pages are the first thing
 * a visitor downloads, so they use this.
 */
export function TextInput({
  id,
  label,
  helperText,
  error,
  fullWidth,
  required,
  disabled,
  htmlInput,
  ...input
}: TextInputProps) {
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl
      fullWidth={fullWidth}
      error={error}
      required={required}
      disabled={disabled}
      variant="outlined"
    >
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput id={id} label={label} aria-describedby={helperId} inputProps={htmlInput} {...input} />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
