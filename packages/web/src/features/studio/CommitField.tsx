import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useState } from 'react';

/**
 * A text field that keeps what is typed to itself and hands it over (`onCommit`) when it loses
 * focus or on Enter, so an edit to the definition is made once, not per keystroke. A new `value`
 * from outside replaces the draft.
 */
export function CommitField({
  value,
  onCommit,
  ...props
}: Omit<TextFieldProps, 'value' | 'onChange' | 'onBlur' | 'onKeyDown'> & {
  value: string;
  onCommit: (value: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  const commit = () => {
    if (draft !== value) onCommit(draft);
  };
  return (
    <TextField
      size="small"
      {...props}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !props.multiline) {
          e.preventDefault();
          commit();
        }
        if (e.key === 'Escape') setDraft(value);
      }}
    />
  );
}
