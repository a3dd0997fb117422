import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguageCode, lookupLanguage, type LanguageCode } from '@slipway/contracts';
import { en } from './locales/en';

/**
 * English comes in two parts: `en` (the shell and the sign-in screens) is bundled; `enApp` (every
 * area of the signed-in application) loads with the application layout, so a first visit to
 * /login does not download it. Instances created before it arrives receive it when it does.
 */
let appStrings: object | undefined;
const instances = new Set<WeakRef<I18n>>();

/** Adds the application's English to every instance, present and future. */
export function addAppStrings(strings: object): void {
  appStrings = strings;
  for (const ref of instances) {
    const instance = ref.deref();
    if (instance) instance.addResourceBundle('en', 'translation', strings, true, true);
    else instances.delete(ref);
  }
}

/** Loads the application's English once; the layout's route waits for it. */
export async function loadAppStrings(): Promise<void> {
  if (!appStrings) addAppStrings((await import('./locales/en-app')).enApp);
}

/** Where the chosen language is remembered between visits. */
export const LANGUAGE_STORAGE_KEY = 'slipway.language';

/**
 * English is bundled; the other dictionaries (sidebar labels only) load when someone picks the
 * language, so a first visit does not download them.
 */
export const dictionaryLoaders: Record<Exclude<LanguageCode, 'en'>, () => Promise<object>> = {
  ar: async () => (await import('./locales/ar')).ar,
  fr: async () => (await import('./locales/fr')).fr,
  ja: async () => (await import('./locales/ja')).ja,
  hn: async () => (await import('./locales/hn')).hn,
};

const lazyDictionaries: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = dictionaryLoaders[language as keyof typeof dictionaryLoaders];
    if (!load) return callback(null, {});
    load().then(
      (dictionary) => callback(null, dictionary as never),
      (err: unknown) => callback(err as Error, null),
    );
  },
};

/**
 * The document's `lang` attribute wants a BCP 47 tag. The spec's code for Hindi is `hn`, which
 * is not one, so the document says `hi` while the dictionary lookup keeps `hn`.
 */
export function documentLang(code: LanguageCode): string {
  return code === 'hn' ? 'hi' : code;
}

export function storedLanguage(): LanguageCode {
  try {
    const v = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguageCode(v) ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Sets `lang` and `dir` on <html>: Arabic turns the whole document right-to-left. */
export function applyDocumentLanguage(code: LanguageCode, doc: Document = document) {
  const language = lookupLanguage(code);
  doc.documentElement.lang = documentLang(language.code);
  doc.documentElement.dir = language.dir;
}

/** Creates and initialises an i18next instance; resources are bundled, so this is synchronous. */
export function createI18n(language: LanguageCode = storedLanguage()): I18n {
  const instance = i18next.createInstance();
  void instance
    .use(lazyDictionaries)
    .use(initReactI18next)
    .init({
      resources: { en: { translation: appStrings ? { ...en, ...appStrings } : en } },
      partialBundledLanguages: true,
      react: { bindI18nStore: 'added' },
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: ['en', 'ar', 'fr', 'ja', 'hn'],
      // i18next would otherwise treat 'hn' as unknown and reject it.
      nonExplicitSupportedLngs: false,
      interpolation: { escapeValue: false },
      showSupportNotice: false,
      initAsync: false,
    });
  instances.add(new WeakRef(instance));
  instance.on('languageChanged', (lng) => {
    const code = isLanguageCode(lng) ? lng : DEFAULT_LANGUAGE;
    applyDocumentLanguage(code);
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
    } catch {
      // storage may be unavailable (private mode); the choice then lasts for this page only
    }
  });
  applyDocumentLanguage(isLanguageCode(language) ? language : DEFAULT_LANGUAGE);
  return instance;
}
