/** Interface languages (spec §1). Only English is complete; the others cover sidebar labels. */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'hn', name: 'हिन्दी', dir: 'ltr' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export function isLanguageCode(code: unknown): code is LanguageCode {
  return typeof code === 'string' && LANGUAGES.some((l) => l.code === code);
}

/** The language lookup: picks the language by code, falling back to English. */
export function lookupLanguage(code: string | null | undefined) {
  return LANGUAGES.find((l) => l.code === code) ?? LANGUAGES[0];
}
