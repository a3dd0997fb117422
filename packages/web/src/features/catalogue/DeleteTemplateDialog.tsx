import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Permission } from '@slipway/contracts';
import { errorMessage, type ApiError } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PermissionButton } from '../access/Can';

interface DeleteTemplateDialogProps {
  /** The template being deleted; null keeps the dialog closed. */
  target: { id: string; name: string } | null;
  body: string;
  /** The page's delete mutation and its state. */
  remove: (id: string) => { unwrap(): Promise<unknown> };
  state: { isLoading: boolean; isError: boolean; error?: ApiError | undefined };
  onClose: () => void;
}

/** The confirmation both catalogue pages ask before deleting a template. */
export function DeleteTemplateDialog({ target, body, remove, state, onClose }: DeleteTemplateDialogProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={target !== null}
      title={t('catalogue.deleteTitle', { name: target?.name ?? '' })}
      body={body}
      confirmLabel={t('catalogue.delete')}
      loading={state.isLoading}
      error={state.isError ? errorMessage(state.error) : null}
      onClose={onClose}
      onConfirm={() =>
        void remove(target!.id)
          .unwrap()
          .then(onClose)
          .catch(() => undefined)
      }
    />
  );
}

/**
 * A catalogue page's deleting of templates: `button(row)` is a row's Delete (needing
 * `permission`), `dialog` the confirmation it opens, which deletes with the page's mutation.
 */
export function useTemplateDeletion<Row extends { id: string; name: string }>(
  [remove, state]: readonly [
    DeleteTemplateDialogProps['remove'],
    DeleteTemplateDialogProps['state'] & { reset: () => void },
  ],
  permission: Permission,
  body: string,
) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<Row | null>(null);
  const button = (row: Row) => (
    <PermissionButton
      size="small"
      color="error"
      permission={permission}
      onClick={() => {
        state.reset();
        setTarget(row);
      }}
    >
      {t('catalogue.delete')}
    </PermissionButton>
  );
  const dialog = (
    <DeleteTemplateDialog
      target={target}
      body={body}
      remove={remove}
      state={state}
      onClose={() => setTarget(null)}
    />
  );
  return { button, dialog };
}
