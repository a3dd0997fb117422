import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { renderWithI18n } from '../test/render';
import { formErrors, type ApiError } from './api-error';
import { FormAlert } from './FormAlert';
import { FormDialog } from './FormDialog';
import { useFormFields, type SubmitAnswer } from './useFormFields';

const schema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  note: z.string().max(5, 'Note must be at most 5 characters'),
  enabled: z.boolean(),
});
type Body = z.infer<typeof schema>;

/** The API's error document as RTK Query hands it over. */
const apiError = (message: string, details: { path: string; message: string }[] = []): ApiError => ({
  status: 400,
  data: { statusCode: 400, error: 'Bad Request', message, requestId: 'req-1', details },
});

function Harness({
  mutate,
  onSuccess,
  onError,
  check,
}: {
  mutate: (body: Body) => Promise<SubmitAnswer<{ id: string }>>;
  onSuccess?: (data: { id: string }, body: Body) => void;
  onError?: (error: ApiError) => boolean;
  check?: () => Record<string, string | undefined>;
}) {
  const form = useFormFields({ name: '', note: '', enabled: false });
  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={form.handleSubmit({ schema, mutate, onSuccess, onError, check })}
    >
      <FormAlert message={form.formError} />
      <FormAlert message={form.succeeded ? 'Saved' : null} severity="success" />
      <TextField {...form.field('name')} label="Name" />
      <TextField {...form.field('note')} label="Note" />
      <FormControlLabel
        control={
          <Switch
            checked={form.values.enabled}
            onChange={(e) => form.setValue('enabled', e.target.checked)}
          />
        }
        label="Enabled"
      />
      <button type="submit" disabled={form.submitting}>
        Save
      </button>
    </form>
  );
}

describe('useFormFields handleSubmit', () => {
  it('shows the schema messages under their fields, focuses the first, and sends nothing', async () => {
    const mutate = vi.fn();
    renderWithI18n(<Harness mutate={mutate} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Note'), 'far too long');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Note must be at most 5 characters')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    expect(mutate).not.toHaveBeenCalled();
    // typing in a field clears its message
    await user.type(screen.getByLabelText('Name'), 'x');
    expect(screen.queryByText('Name is required')).toBeNull();
  });

  it('sends the parsed body, non-text values included, then calls onSuccess', async () => {
    const mutate = vi.fn(async () => ({ data: { id: 'n-1' } }));
    const onSuccess = vi.fn();
    renderWithI18n(<Harness mutate={mutate} onSuccess={onSuccess} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), '  Ada  ');
    await user.click(screen.getByLabelText('Enabled'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    expect(mutate).toHaveBeenCalledWith({ name: 'Ada', note: '', enabled: true });
    expect(onSuccess).toHaveBeenCalledWith({ id: 'n-1' }, { name: 'Ada', note: '', enabled: true });
  });

  it("puts the API's per-field details under their fields and its message in the alert", async () => {
    const mutate = vi.fn(async () => ({
      error: apiError('Validation failed', [
        { path: '/name', message: 'Name is already taken' },
        { path: '/elsewhere', message: 'Not on this form' },
      ]),
    }));
    renderWithI18n(<Harness mutate={mutate} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is already taken')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Validation failed');
    expect(screen.queryByText('Not on this form')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('leaves the alert out when a field already says the same, and shows a bare message alone', async () => {
    const mutate = vi
      .fn<(body: Body) => Promise<SubmitAnswer<{ id: string }>>>()
      .mockResolvedValueOnce({
        error: apiError('Name is taken', [{ path: 'body.name', message: 'Name is taken' }]),
      })
      .mockResolvedValueOnce({ error: { status: 'FETCH_ERROR', error: 'offline' } });
    renderWithI18n(<Harness mutate={mutate} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is taken')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again!');
  });

  it('lets the caller handle a failure itself, and adds its own checks to the schema', async () => {
    const mutate = vi.fn(async () => ({ error: apiError('Email not verified') }));
    const onError = vi.fn(() => true);
    const { rerender } = renderWithI18n(<Harness mutate={mutate} onError={onError} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();

    rerender(<Harness mutate={mutate} check={() => ({ note: 'Say something', name: undefined })} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Say something')).toBeTruthy();
    expect(mutate).toHaveBeenCalledTimes(1);
  });

  it('is busy from the call until onSuccess is done', async () => {
    let finish: (answer: SubmitAnswer<{ id: string }>) => void = () => undefined;
    const mutate = vi.fn(() => new Promise<SubmitAnswer<{ id: string }>>((resolve) => (finish = resolve)));
    renderWithI18n(<Harness mutate={mutate} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true),
    );
    finish({ data: { id: 'n-1' } });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false),
    );
  });
});

describe('formErrors', () => {
  it('keeps every detail without a list of known fields', () => {
    const error = apiError('Bad', [{ path: '/params/0', message: 'Bad param' }]);
    expect(formErrors(error)).toEqual({ fields: { params: 'Bad param' }, message: 'Bad' });
    expect(formErrors(error, ['name'])).toEqual({ fields: {}, message: 'Bad' });
  });
});

describe('nested paths', () => {
  it("put a schema issue or an API detail under the form's field a path names", async () => {
    const nested = z.object({ source: z.object({ url: z.string().min(1, 'URL is required') }) });
    const mutate = vi.fn(async () => ({
      error: apiError('Unreachable', [{ path: 'body.source.url', message: 'Unreachable' }]),
    }));
    function Nested() {
      const form = useFormFields({ url: '' }, { idPrefix: 'repo' });
      return (
        <form
          ref={form.formRef}
          noValidate
          onSubmit={form.handleSubmit({ schema: nested, input: { source: form.values }, mutate })}
        >
          <FormAlert message={form.formError} />
          <TextField {...form.field('url')} label="URL" />
          <span>{form.tried ? 'tried' : 'untried'}</span>
          <button type="submit">Add</button>
        </form>
      );
    }
    renderWithI18n(<Nested />);
    const user = userEvent.setup();
    expect(screen.getByLabelText('URL').id).toBe('repo-url');
    expect(screen.getByText('untried')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('URL is required')).toBeTruthy();
    expect(screen.getByText('tried')).toBeTruthy();
    await user.type(screen.getByLabelText('URL'), 'https://git.example.com/x.git');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Unreachable')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(mutate).toHaveBeenCalledWith({ source: { url: 'https://git.example.com/x.git' } });
  });
});

describe('check and apiError', () => {
  it('stops silently on an empty check message, and keeps the failed call in apiError', async () => {
    const failure = apiError('Definition is invalid', [{ path: '/definition', message: 'line 3: bad' }]);
    const mutate = vi.fn(async () => ({ error: failure }));
    function Harness2() {
      const form = useFormFields({ name: '' });
      const submit = form.handleSubmit({
        check: () => ({ name: form.values.name ? undefined : '' }),
        mutate,
      });
      return (
        <form ref={form.formRef} noValidate onSubmit={submit}>
          <FormAlert message={form.formError} />
          <TextField {...form.field('name')} label="Name" />
          <span data-testid="api-error">{form.apiError ? 'failed' : 'none'}</span>
          <button type="submit">Go</button>
        </form>
      );
    }
    renderWithI18n(<Harness2 />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Go' }));
    expect(mutate).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('false');
    await user.type(screen.getByLabelText('Name'), 'x');
    await user.click(screen.getByRole('button', { name: 'Go' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Definition is invalid');
    expect(screen.getByTestId('api-error').textContent).toBe('failed');
  });
});

describe('FormDialog', () => {
  it('shows the form error above the lead, and only Cancel (relabelled) when read-only', () => {
    renderWithI18n(
      <FormDialog
        id="thing"
        title="A thing"
        error="Refused"
        lead={<p>Intro</p>}
        submitLabel="Save"
        cancelLabel="Close"
        readOnly
        busy={false}
        onSubmit={() => undefined}
        onClose={() => undefined}
      >
        <TextField label="Name" />
      </FormDialog>,
    );
    expect(screen.getByRole('dialog', { name: 'A thing' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Refused');
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
