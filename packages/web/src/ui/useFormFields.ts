import { useCallback, useEffect, useRef, useState, type ChangeEvent, type RefObject } from 'react';
import type { z } from 'zod';

/** One message per field: the first issue zod reports for it (spec §5 wording). */
export function issuesByField(issues: z.ZodError['issues']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/**
 * Controlled text fields checked with a contracts schema. `field(name)` gives the props of a MUI
 * TextField (value, change handler, error and its message); `parse(schema, input)` validates on
 * submit, shows each field's message and moves the focus to the first field in error.
 */
export function useFormFields<F extends string>(initial: Record<F, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const [attempt, setAttempt] = useState(0);
  const formRef: RefObject<HTMLFormElement | null> = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (attempt === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const field = useCallback(
    (name: F) => ({
      name,
      id: `field-${name}`,
      value: values[name],
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        const value = e.target.value;
        setValues((v) => ({ ...v, [name]: value }));
        setErrors((errs) => (errs[name] ? { ...errs, [name]: undefined } : errs));
      },
      error: Boolean(errors[name]),
      helperText: errors[name],
    }),
    [values, errors],
  );

  /** Validates; on failure shows the messages (and returns null), on success clears them. */
  const parse = useCallback(<T>(schema: z.ZodType<T>, input: unknown): T | null => {
    const result = schema.safeParse(input);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    setErrors(issuesByField(result.error.issues) as Partial<Record<F, string>>);
    setAttempt((n) => n + 1);
    return null;
  }, []);

  /** Shows messages that came from elsewhere (the API's per-field details). */
  const showErrors = useCallback((errs: Record<string, string>) => {
    setErrors(errs as Partial<Record<F, string>>);
    setAttempt((n) => n + 1);
  }, []);

  const reset = useCallback(() => {
    setValues(initial);
    setErrors({});
    // `initial` is a literal at each call site; resetting to the first render's values is intended.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { values, errors, field, parse, showErrors, reset, formRef };
}
