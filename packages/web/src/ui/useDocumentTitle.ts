import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Names the browser tab after the page: "<title> · Slipway". */
export function useDocumentTitle(title: string) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
}
