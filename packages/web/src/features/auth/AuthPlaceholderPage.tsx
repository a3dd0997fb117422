import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Button } from '../../ui/Button';

/** Sign-in and the other account screens arrive with identity (issue 3); until then, say so. */
export default function AuthPlaceholderPage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }} data-testid="auth-page">
      <Paper variant="outlined" sx={{ p: 4, maxWidth: 440, width: '100%' }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('auth.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('auth.comingSoon')}
        </Typography>
        <Button component={RouterLink} to="/dashboard" variant="contained" fullWidth>
          {t('auth.continue')}
        </Button>
      </Paper>
    </Box>
  );
}
