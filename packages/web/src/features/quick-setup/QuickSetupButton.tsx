import Bolt from '@mui/icons-material/Bolt';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Button, type ButtonProps } from '../../ui/Button';
import { usePermission } from '../access/usePermission';

/** Where the quick setup page is (under the applications area). */
export const QUICK_SETUP_PATH = '/applications/quick-setup';

/**
 * The way to quick setup (the applications list's header and empty state, the dashboard's
 * getting-started card): a link styled as a button, shown only to those who may create
 * applications (and not before their grants are known), as the page itself needs that.
 */
export function QuickSetupButton({ variant = 'outlined', size }: Pick<ButtonProps, 'variant' | 'size'>) {
  const { t } = useTranslation();
  const { allowed, isLoading } = usePermission('applications:create');
  if (isLoading || !allowed) return null;
  return (
    <Button
      component={RouterLink}
      to={QUICK_SETUP_PATH}
      variant={variant}
      size={size}
      startIcon={<Bolt />}
      data-testid="quick-setup-entry"
    >
      {t('quickSetup.entry')}
    </Button>
  );
}
