import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useMatches } from 'react-router';
import type { AreaId } from '../../app/navigation';
import { NAV_ICONS } from '../../app/layout/nav-icons';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';

/**
 * An area of the product that is not built yet. It says so plainly and describes what the area
 * will do; it never shows sample data.
 */
export default function ComingSoonPage() {
  const { t } = useTranslation();
  const matches = useMatches();
  const area = (matches.at(-1)?.handle as { area?: AreaId } | undefined)?.area ?? 'dashboard';
  const title = t(`nav.${area}`);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return (
    <Box data-testid={`area-${area}`} sx={{ maxWidth: 960 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {title}
        </Typography>
        <Chip label={t('comingSoon.badge')} size="small" color="secondary" variant="outlined" />
      </Box>
      <EmptyState icon={NAV_ICONS[area]} title={t('comingSoon.plannedTitle')}>
        <Typography sx={{ maxWidth: 600 }}>{t(`areas.${area}`)}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 600 }}>
          {t('comingSoon.body', { area: title.toLowerCase() })}
        </Typography>
        {area === 'dashboard' ? null : (
          <Button component={RouterLink} to="/dashboard" variant="outlined">
            {t('comingSoon.backToDashboard')}
          </Button>
        )}
      </EmptyState>
    </Box>
  );
}
