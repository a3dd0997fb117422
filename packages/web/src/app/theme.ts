import createCache from '@emotion/cache';
import { createTheme, type Theme } from '@mui/material/styles';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';

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

/** Emotion caches: the right-to-left one flips every style through stylis-plugin-rtl. */
export const emotionCaches: Record<Direction, ReturnType<typeof createCache>> = {
  ltr: createCache({ key: 'mui' }),
  rtl: createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
};
