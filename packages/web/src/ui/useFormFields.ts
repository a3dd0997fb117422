import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type RefObject,
} from 'react';
import type { z } from 'zod';
import { fieldOfPath, formErrors, type ApiError } from './api-error';

/**
 * One message per field: the first issue zod reports for it (spec §5 wording). A nested path
 * (`source.url`) belongs to the first of its segments that is one of the `known` fields.
 */
export function issuesByField(
  issues: z.ZodError['issues'],
  known?: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = fieldOfPath(issue.path.map(String), known);
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/** What an RTK Query mutation trigger (or any call shaped like one) answers. */
export interface SubmitAnswer<R> {
  data?: R;
  error?: ApiError;
}

export interface SubmitOptions<T, R> {
  /** The contracts schema the input must pass; without one the input is sent as it is. */
  schema?: z.ZodType<T>;
  /** What is checked and sent; the form's values when left out. */
  input?: unknown;
  /**
   * Checks a schema cannot make (or a nicer wording for one of its messages), by field. Their
   * messages join the schema's and win over them; any message stops the submission. An empty
   * message stops it without a word, for what the form already shows (a disabled button).
   */
  check?: () => Record<string, string | undefined>;
  /** Sends the checked body: usually an RTK Query mutation trigger. */
  mutate: (body: T) => PromiseLike<SubmitAnswer<R>>;
  /** After a successful call: close the dialog, show "Saved", navigate. Awaited while busy. */
  onSuccess?: (data: R, body: T) => unknown;
  /** A failure the form handles itself (answer true), such as a redirect; otherwise it is shown. */
  onError?: (error: ApiError, body: T) => boolean | Promise<boolean>;
}

/** The keys of `V` whose values are text, which `field()` binds to a text input. */
type TextKey<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/**
 * The one form approach of the web app (decision 029): controlled fields checked with a contracts
 * schema.
 *
 * - `field(name)` gives the props of a MUI TextField for a text value (value, change handler, error
 *   and its message); `setValue(name, value)` sets any value (a select, a switch, a list of rows).
 * - `handleSubmit({ schema, input, mutate, onSuccess })` is the form's submit handler: it checks
 *   the input, shows each field's message and moves the focus to the first field in error; else it
 *   calls `mutate` and, when the API refuses, puts its per-field `details` under their fields and
 *   its message in `formError` (for a FormAlert) unless a field already says the same; the
 *   failure itself stays in `apiError` (for what else it carries, such as definition issues).
 * - `submitting` is true from the call until `onSuccess` is done; `succeeded` from then until the
 *   next submission (for a "Saved" notice); `tried` once a submission was tried (for messages a
 *   form works out itself as the values change, such as one per row of a list).
 */
export function useFormFields<V extends object>(
  initial: V,
  {
    idPrefix = 'field',
    formError: initialFormError = null,
  }: {
    /** Field ids are `<idPrefix>-<name>`. */
    idPrefix?: string;
    /** A form-level message to start with, such as one a redirect brought. */
    formError?: string | null;
  } = {},
) {
  const [values, setValues] = useState(initial);
  // the form's fields: where schema issues and the API's details may go
  const [known] = useState(() => Object.keys(initial));
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [formError, setFormError] = useState<string | null>(initialFormError);
  const [apiError, setApiError] = useState<ApiError>(undefined);
  const [submitting, setSubmitting] = useState(false);
  const [succeeded, setSucceeded] = useState(false);
  const [tried, setTried] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef: RefObject<HTMLFormElement | null> = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (attempt === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const setValue = useCallback(<K extends keyof V & string>(name: K, value: V[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((errs) => (errs[name] ? { ...errs, [name]: undefined } : errs));
  }, []);

  const field = useCallback(
    (name: TextKey<V>) => ({
      name,
      id: `${idPrefix}-${name}`,
      value: values[name] as string,
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        setValue(name, e.target.value as V[typeof name]),
      error: Boolean(errors[name]),
      helperText: errors[name],
    }),
    [values, errors, setValue, idPrefix],
  );

  /** Shows messages that came from elsewhere (the API's per-field details) and focuses the first. */
  const showErrors = useCallback((errs: Record<string, string | undefined>) => {
    setErrors(errs);
    setAttempt((n) => n + 1);
  }, []);

  /** Validates; on failure shows the messages (and returns null), on success clears them. */
  const parse = useCallback(
    <T>(schema: z.ZodType<T>, input: unknown): T | null => {
      const result = schema.safeParse(input);
      if (result.success) {
        setErrors({});
        return result.data;
      }
      showErrors(issuesByField(result.error.issues, known));
      return null;
    },
    [showErrors, known],
  );

  const handleSubmit =
    <T, R>(options: SubmitOptions<T, R>) =>
    async (event?: FormEvent): Promise<void> => {
      event?.preventDefault();
      setTried(true);
      setFormError(null);
      setApiError(undefined);
      setSucceeded(false);
      const input = 'input' in options ? options.input : values;
      const checked = options.schema ? options.schema.safeParse(input) : null;
      const found = {
        ...(checked && !checked.success ? issuesByField(checked.error.issues, known) : {}),
        ...Object.fromEntries(Object.entries(options.check?.() ?? {}).filter(([, m]) => m !== undefined)),
      };
      if (Object.keys(found).length > 0) return showErrors(found);
      setErrors({});
      const body = (checked?.success ? checked.data : input) as T;
      setSubmitting(true);
      try {
        const answer = await options.mutate(body);
        if (answer.error === undefined) {
          await options.onSuccess?.(answer.data as R, body);
          setSucceeded(true);
          return;
        }
        setApiError(answer.error);
        if (await options.onError?.(answer.error, body)) return;
        const { fields, message } = formErrors(answer.error, known);
        showErrors(fields);
        setFormError(message);
      } finally {
        setSubmitting(false);
      }
    };

  const reset = useCallback(() => {
    setValues(initial);
    setErrors({});
    setFormError(null);
    setSucceeded(false);
    setTried(false);
    // `initial` is a literal at each call site; resetting to the first render's values is intended.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return {
    values,
    errors,
    field,
    setValue,
    parse,
    showErrors,
    handleSubmit,
    formError,
    setFormError,
    apiError,
    submitting,
    succeeded,
    tried,
    reset,
    formRef,
  };
}
