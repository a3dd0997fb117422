import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguageCode, lookupLanguage, type LanguageCode } from '@slipway/contracts';
import { ar } from './locales/ar';
import { en } from './locales/en';
import { fr } from './locales/fr';
import { hn } from './locales/hn';
import { ja } from './locales/ja';

/** Where the chosen language is remembered between visits. */
export const LANGUAGE_STORAGE_KEY = 'slipway.language';

export const resources = {
  en: { translation: en },
  ar: { translation: ar },
  fr: { translation: fr },
  ja: { translation: ja },
  hn: { translation: hn },
} as const;

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
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['en', 'ar', 'fr', 'ja', 'hn'],
    // i18next would otherwise treat 'hn' as unknown and reject it.
    nonExplicitSupportedLngs: false,
    interpolation: { escapeValue: false },
    showSupportNotice: false,
    initAsync: false,
  });
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
