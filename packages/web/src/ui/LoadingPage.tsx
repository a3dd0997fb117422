import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOADING_TITLE_ROTATION_MS } from '@slipway/contracts';

/** Shown while a lazily loaded part of the app loads; its title changes every 3 seconds. */
export function LoadingPage({ rotateEveryMs = LOADING_TITLE_ROTATION_MS }: { rotateEveryMs?: number }) {
  const { t } = useTranslation();
  const titles = t('loadingPage.titles', { returnObjects: true }) as unknown as string[];
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => i + 1), rotateEveryMs);
    return () => clearInterval(timer);
  }, [rotateEveryMs]);
  return (
    <Box
      role="status"
      aria-live="polite"
      data-testid="loading-page"
      sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', alignContent: 'center', gap: 2 }}
    >
      <CircularProgress aria-hidden />
      <Typography color="text.secondary">{titles[index % titles.length]}</Typography>
    </Box>
  );
}
