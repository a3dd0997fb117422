import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@slipway/contracts';
import { NAV_GROUPS, ALL_AREAS } from '../app/navigation';
import { createI18n, LANGUAGE_STORAGE_KEY } from './i18n';
import { enApp } from './locales/en-app';
import { dictionaryLoaders } from './i18n';

describe('languages', () => {
  it('has a dictionary for every language code', () => {
    expect(['en', ...Object.keys(dictionaryLoaders)].sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  it.each(['ar', 'fr', 'ja', 'hn'] as const)('translates every sidebar label into %s', async (code) => {
    const dict = (await dictionaryLoaders[code]()) as typeof enApp;
    for (const area of ALL_AREAS) {
      expect(dict.nav[area.id], `${code} nav.${area.id}`).toBeTruthy();
    }
    for (const group of NAV_GROUPS) expect(dict.groups[group.id], `${code} groups.${group.id}`).toBeTruthy();
  });

  it('describes every area in English', () => {
    for (const area of ALL_AREAS) expect(enApp.areas[area.id], area.id).toBeTruthy();
  });

  it('turns the document right-to-left for Arabic, remembers the choice, and back', async () => {
    const i18n = createI18n('en');
    expect(document.documentElement.dir).toBe('ltr');
    await i18n.changeLanguage('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('ar');
    expect(i18n.t('nav.pipelines')).toBe('خطوط المعالجة');
    // Only sidebar labels are translated; the rest falls back to English.
    expect(i18n.t('errors.tryAgain')).toBe('Try again');
    await i18n.changeLanguage('hn');
    expect(document.documentElement.lang).toBe('hi');
    expect(document.documentElement.dir).toBe('ltr');
    expect(createI18n().language).toBe('hn');
  });

  it('ignores a stored value that is not a language', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'klingon');
    expect(createI18n().language).toBe('en');
  });
});
