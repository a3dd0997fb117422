import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { CopyField, ShownOnceDialog, useCopy } from '../../ui/ShownOnceDialog';

/**
 * The new token, shown this once with a copy button. Without the clipboard API (or when it is
 * refused) the token is selected so the user can copy it themselves.
 */
export function TokenDialog({ name, token, onClose }: { name: string; token: string; onClose: () => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const { notice, copy } = useCopy('serviceAccountsPage.token');
  return (
    <ShownOnceDialog
      id="token"
      testId="token-dialog"
      title={t('serviceAccountsPage.token.title', { name })}
      warning={t('serviceAccountsPage.token.warning')}
      notice={notice}
      doneLabel={t('serviceAccountsPage.token.done')}
      onClose={onClose}
      actions={
        <Button onClick={() => void copy(token, input.current)} variant="outlined">
          {t('serviceAccountsPage.token.copy')}
        </Button>
      }
    >
      <CopyField
        inputRef={input}
        id="service-account-token"
        label={t('serviceAccountsPage.token.label')}
        value={token}
      />
    </ShownOnceDialog>
  );
}
