import Translate from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, lookupLanguage } from '@slipway/contracts';
import { documentLang } from '../../i18n/i18n';

/** Picks the interface language; the choice is remembered (see i18n.ts). */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = lookupLanguage(i18n.language);
  return (
    <>
      <Button
        color="inherit"
        startIcon={<Translate aria-hidden />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'language-menu' : undefined}
        aria-label={`${t('language.menu')}: ${current.name}`}
        data-testid="language-menu"
      >
        {current.name}
      </Button>
      <Menu
        id="language-menu"
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-label': t('language.choose') } }}
      >
        {LANGUAGES.map((l) => (
          <MenuItem
            key={l.code}
            lang={documentLang(l.code)}
            selected={l.code === current.code}
            data-testid={`language-option-${l.code}`}
            onClick={() => {
              setAnchor(null);
              void i18n.changeLanguage(l.code);
            }}
          >
            {l.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
