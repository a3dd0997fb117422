import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { addAppStrings } from '../i18n/i18n';
import { enApp } from '../i18n/locales/en-app';

// findBy… and waitFor wait up to 30 s (Testing Library's default is 1 s): on a loaded machine (a
// CPU hog beside the suite took a page past 15 s) a slow render must not fail a test; one that
// never comes still fails.
configure({ asyncUtilTimeout: 30_000 });

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

/**
 * jsdom computes an element's style by testing it against every rule of every style sheet, and
 * MUI's emotion writes thousands of them (one per distinct style, never removed): half a web
 * test's time went there (Testing Library's accessible names, MUI's TextareaAutosize, user-event's
 * pointer-events check). Almost all of those rules end in a class (`.css-1x2y3z`,
 * `.css-1x2y3z .MuiButton-root`), so an element without that class cannot match and the full
 * selector engine is asked only about the rest. Same answers, a fraction of the work.
 */
function fastRuleMatching() {
  const implSymbol = Object.getOwnPropertySymbols(document).find((s) => s.description === 'impl');
  type Check = (
    selector: string,
    node: unknown,
    opt?: object,
  ) => { match: boolean; pseudoElement: string | null };
  const engine = implSymbol
    ? (document as unknown as Record<symbol, { _domSelector?: { check: Check } }>)[implSymbol]?._domSelector
    : undefined;
  if (!engine) return; // another jsdom: keep its own matching
  const full = engine.check.bind(engine);
  // the last compound of a selector without brackets or parentheses, and its classes
  const lastClasses = new Map<string, { classes: string[]; onlyClasses: boolean } | null>();
  const parse = (selector: string) => {
    if (/[[(,\\]/.test(selector)) return null;
    const last = /(?:^|[\s>+~])([^\s>+~]+)$/.exec(selector.trim())?.[1] ?? '';
    const classes = [...last.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]!);
    if (classes.length === 0) return null;
    return { classes, onlyClasses: last === selector.trim() && /^(\.-?[_a-zA-Z][\w-]*)+$/.test(last) };
  };
  engine.check = (selector, node, opt) => {
    let parsed = lastClasses.get(selector);
    if (parsed === undefined) lastClasses.set(selector, (parsed = parse(selector)));
    const element = node as { getAttributeNS?: (ns: null, name: string) => string | null };
    if (parsed && typeof element.getAttributeNS === 'function') {
      const have = ` ${(element.getAttributeNS(null, 'class') ?? '').replace(/\s+/g, ' ')} `;
      const hasAll = parsed.classes.every((c) => have.includes(` ${c} `));
      if (!hasAll) return { match: false, pseudoElement: null };
      if (parsed.onlyClasses) return { match: true, pseudoElement: null };
    }
    return full(selector, node, opt);
  };
}
fastRuleMatching();

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
