import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

/** Shown when the user lacks a page permission (spec §2, §6). */
export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="access-denied"
      sx={{ minHeight: '50vh', display: 'grid', placeItems: 'center', alignContent: 'center', gap: 1, p: 3 }}
    >
      <Icon icon={LockOutlined} sx={{ fontSize: 56, color: 'text.secondary' }} />
      <Typography variant="h5" component="h1" textAlign="center">
        {t('errors.accessDeniedTitle')}
      </Typography>
      <Typography color="text.secondary" textAlign="center">
        {t('errors.accessDeniedHint')}
      </Typography>
    </Box>
  );
}
