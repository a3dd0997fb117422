import { useTranslation } from 'react-i18next';
import { errorMessage, type ApiError } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

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
