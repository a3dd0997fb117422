import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * Guards edits that are not saved yet: leaving for another page asks first (a dialog), and
 * closing or reloading the tab makes the browser ask. `release()` lets the next navigation go
 * without asking (a save that then opens the saved thing's page).
 */
export function useUnsavedChanges(dirty: boolean) {
  const { t } = useTranslation();
  const guarded = useRef(dirty);
  guarded.current = dirty;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      guarded.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // older browsers show their own words only when this is set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  const dialog = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title={t('common.unsaved.title')}
      body={t('common.unsaved.body')}
      confirmLabel={t('common.unsaved.leave')}
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
  return {
    dialog,
    release: () => {
      guarded.current = false;
    },
  };
}
