import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import type { Persistor } from 'redux-persist';
import { lookupLanguage } from '@slipway/contracts';
import { LoadingPage } from '../ui/LoadingPage';
import { createAppRouter } from './router';
import { createAppTheme, loadRtlCache, ltrCache, type EmotionCache } from './theme';

/** Theme (left-to-right or right-to-left by language), restored state, then the router. */
export function AppRoot({ persistor }: { persistor: Persistor }) {
  const { i18n } = useTranslation();
  const direction = lookupLanguage(i18n.language).dir;
  const theme = useMemo(() => createAppTheme(direction), [direction]);
  const [router] = useState(createAppRouter);
  const [rtlCache, setRtlCache] = useState<EmotionCache | null>(null);
  useEffect(() => {
    if (direction === 'rtl' && !rtlCache) void loadRtlCache().then(setRtlCache);
  }, [direction, rtlCache]);
  // Until the right-to-left styles have loaded (a moment, once), the left-to-right ones serve.
  const cache = direction === 'rtl' && rtlCache ? rtlCache : ltrCache;
  return (
    <CacheProvider value={cache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <PersistGate persistor={persistor} loading={<LoadingPage />}>
          <RouterProvider router={router} />
        </PersistGate>
      </ThemeProvider>
    </CacheProvider>
  );
}
