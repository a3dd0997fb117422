import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { Provider as StoreProvider } from 'react-redux';
import { AppRoot } from './app/AppRoot';
import { Startup } from './app/Startup';
import { createStore } from './app/store';
import { fingerprintSet } from './features/auth/auth-slice';
import { browserFingerprint } from './features/auth/auth-storage';
import { createI18n } from './i18n/i18n';

const i18n = createI18n();
const { store, persistor } = createStore();
store.dispatch(fingerprintSet(browserFingerprint()));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <StoreProvider store={store}>
        <Startup>
          <AppRoot persistor={persistor} />
        </Startup>
      </StoreProvider>
    </I18nextProvider>
  </StrictMode>,
);
