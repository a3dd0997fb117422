import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, type ApiError } from './api-error';
import { ConfirmDialog } from './ConfirmDialog';

/** What the dialog says about one row: its title and body, and the button's label (Delete). */
export interface DeleteWords {
  title: string;
  body: string;
  confirmLabel?: string;
}

/** An RTK Query delete mutation as its hook returns it: the trigger and the request's state. */
export type DeleteMutation = readonly [
  (id: string) => PromiseLike<{ error?: unknown }>,
  { isLoading: boolean; error?: unknown; reset: () => void },
];

export interface ConfirmDelete<T> {
  /** Opens the dialog for a row. */
  ask: (row: T) => void;
  /** The row being asked about, or null. */
  target: T | null;
  /** The dialog, to render once in the page. */
  dialog: ReactElement;
}

/**
 * The delete flow every list has: ask about a row, delete it on confirm, keep the dialog open
 * with the server's refusal (a 409, say) if the delete fails, and close — forgetting the
 * refusal — on success or cancel. `onDeleted` runs after a row went (e.g. to leave its page).
 */
export function useConfirmDelete<T extends { id: string }>(
  [remove, state]: DeleteMutation,
  words: (row: T) => DeleteWords,
  onDeleted?: (row: T) => void,
): ConfirmDelete<T> {
  const { t } = useTranslation();
  const [target, setTarget] = useState<T | null>(null);
  const close = () => {
    state.reset();
    setTarget(null);
  };
  // While the dialog fades out, its words are those of no row (as before: name '').
  const said = target ? words(target) : { title: '', body: '' };
  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title={said.title}
      body={said.body}
      confirmLabel={said.confirmLabel ?? t('common.delete')}
      loading={state.isLoading}
      error={state.error ? errorMessage(state.error as ApiError) : null}
      onClose={close}
      onConfirm={async () => {
        if (!target || (await remove(target.id)).error) return;
        onDeleted?.(target);
        close();
      }}
    />
  );
  return { ask: setTarget, target, dialog };
}
