import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput, type TextInputProps } from './TextInput';

/** A password text field with a button that shows or hides what was typed. */
export function PasswordField(props: Omit<TextInputProps, 'type' | 'endAdornment'>) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <TextInput
      {...props}
      type={shown ? 'text' : 'password'}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            edge="end"
            aria-label={shown ? t('auth.hidePassword') : t('auth.showPassword')}
            aria-controls={props.id}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
