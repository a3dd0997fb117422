import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../i18n/i18n';

/** Renders with a fresh English i18n instance, as the app provides one. */
export function renderWithI18n(ui: ReactElement, options?: RenderOptions) {
  const i18n = createI18n('en');
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
  );
  return { i18n, ...render(ui, { wrapper: Wrapper, ...options }) };
}
