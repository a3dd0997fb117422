import AccountTree from '@mui/icons-material/AccountTree';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Button } from '../../ui/Button';

/**
 * "Open in Studio", for a pipeline's or a run's page header: a link to the studio's canvas for
 * it. Small on purpose: the pages that show it do not load the studio until it is followed.
 */
export function OpenInStudio(props: { pipeline: string } | { run: string }) {
  const { t } = useTranslation();
  const to =
    'pipeline' in props
      ? `/studio/pipelines/${encodeURIComponent(props.pipeline)}`
      : `/studio/runs/${encodeURIComponent(props.run)}`;
  return (
    <Button
      variant="outlined"
      component={RouterLink}
      to={to}
      startIcon={<AccountTree />}
      data-testid="open-in-studio"
    >
      {t('studioPage.openInStudio')}
    </Button>
  );
}
