import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { addAppStrings } from '../i18n/i18n';
import { enApp } from '../i18n/locales/en-app';

// findBy… and waitFor wait up to 15 s (Testing Library's default is 1 s): on a loaded machine a
// render that takes a second longer must not fail a test; one that never comes still fails.
configure({ asyncUtilTimeout: 15_000 });

// The app loads its application strings with the layout; components under test get them at once.
addAppStrings(enApp);

/**
 * jsdom has no media queries; answer min-width/max-width ones against a desktop-sized window,
 * so the layout renders as it does on a laptop.
 */
const WIDTH = 1280;
window.matchMedia = (query: string) => {
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  const matches = (!min || WIDTH >= Number(min[1])) && (!max || WIDTH <= Number(max[1]));
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  } as MediaQueryList;
};

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
