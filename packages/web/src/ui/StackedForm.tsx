import Stack from '@mui/material/Stack';
import type { FormEvent, ReactNode, Ref } from 'react';
import { Button } from './Button';
import { FormAlert } from './FormAlert';

export interface StackedFormProps {
  /** The form hook's state (`useFormFields`): its element, error and whether it is sending. */
  form: { formRef: Ref<HTMLFormElement>; formError: string | null; submitting: boolean };
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  /** A success notice under the error ("Saved"); its status region is there only when given. */
  notice?: string | null;
  /** What stands between the messages and the form (sign-in buttons, say). */
  lead?: ReactNode;
  submitLabel: string;
  /** A full-width large submit button, as on the sign-in pages; else a plain one at the start. */
  wide?: boolean;
  /** The fields, stacked. */
  children: ReactNode;
  /** What follows the submit button in the column (another way to submit, say). */
  after?: ReactNode;
}

/**
 * A page's form (not a dialog's): its error and notice above, then the fields in one column and
 * the submit button last. The browser's own validation is off, so the form's messages show.
 */
export function StackedForm({
  form,
  onSubmit,
  notice,
  lead,
  submitLabel,
  wide = false,
  children,
  after,
  ...aria
}: StackedFormProps) {
  const submit = (
    <Button
      type="submit"
      variant="contained"
      loading={form.submitting}
      {...(wide ? { size: 'large', fullWidth: true } : {})}
    >
      {submitLabel}
    </Button>
  );
  return (
    <>
      <FormAlert message={form.formError} />
      {notice !== undefined ? <FormAlert message={notice} severity="success" /> : null}
      {lead}
      <form ref={form.formRef} noValidate onSubmit={onSubmit} {...aria}>
        <Stack spacing={2}>
          {children}
          {wide ? submit : <div>{submit}</div>}
          {after}
        </Stack>
      </form>
    </>
  );
}
