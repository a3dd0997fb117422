import createCache from '@emotion/cache';
import { createTheme, type Theme } from '@mui/material/styles';

export type Direction = 'ltr' | 'rtl';

/** Slipway's theme; the tour's purple is the primary colour (spec §2: purple active dots). */
export function createAppTheme(direction: Direction): Theme {
  return createTheme({
    direction,
    palette: {
      primary: { main: '#5b3fd1' },
      secondary: { main: '#0f766e' },
      background: { default: '#f6f7fb' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButtonBase: { defaultProps: { disableRipple: false } },
    },
  });
}

export type EmotionCache = ReturnType<typeof createCache>;

/** The left-to-right Emotion cache; the right-to-left one loads on demand (rtl-cache.ts). */
export const ltrCache: EmotionCache = createCache({ key: 'mui' });

let rtl: Promise<EmotionCache> | undefined;
export function loadRtlCache(): Promise<EmotionCache> {
  rtl ??= import('./rtl-cache').then((m) => m.rtlCache);
  return rtl;
}
