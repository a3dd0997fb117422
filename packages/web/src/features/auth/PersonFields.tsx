import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { PASSWORD_RULE_MESSAGE } from '@slipway/contracts';
import { PasswordField } from '../../ui/PasswordField';
import { TextInput, type TextInputProps } from '../../ui/TextInput';

/** What `useFormFields().field(name)` gives a text input. */
export type BoundField = Pick<TextInputProps, 'id' | 'name' | 'value' | 'onChange' | 'error' | 'helperText'>;

/** The e-mail address a person types in. */
export function EmailInput({ field, autoFocus }: { field: BoundField; autoFocus?: boolean }) {
  const { t } = useTranslation();
  return (
    <TextInput
      {...field}
      label={t('auth.email')}
      type="email"
      autoComplete="email"
      autoFocus={autoFocus}
      fullWidth
    />
  );
}

/** An e-mail address that is shown in the form but not edited (an invite's, a profile's). */
export function FixedEmail({
  id,
  email,
  autoComplete,
}: {
  id: string;
  email: string;
  autoComplete?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      id={id}
      label={t('auth.email')}
      value={email}
      onChange={() => undefined}
      autoComplete={autoComplete}
      fullWidth
      htmlInput={{ readOnly: true }}
    />
  );
}

/** First and last name side by side (one above the other on a phone). */
export function NameFields({
  first,
  last,
  autoFocus,
}: {
  first: BoundField;
  last: BoundField;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextInput
        {...first}
        label={t('auth.firstName')}
        autoComplete="given-name"
        autoFocus={autoFocus}
        fullWidth
      />
      <TextInput {...last} label={t('auth.lastName')} autoComplete="family-name" fullWidth />
    </Stack>
  );
}

/**
 * A new password, with the password rule under it until there is a message, and its confirmation;
 * labelled 'New password' and 'Confirm password' unless told otherwise.
 */
export function NewPasswordFields({
  password,
  confirm,
  label,
  confirmLabel,
  autoFocus,
}: {
  password: BoundField;
  confirm?: BoundField;
  label?: string;
  confirmLabel?: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        {...password}
        label={label ?? t('auth.newPassword')}
        autoComplete="new-password"
        helperText={password.helperText ?? PASSWORD_RULE_MESSAGE}
        autoFocus={autoFocus}
        fullWidth
      />
      {confirm ? (
        <PasswordField
          {...confirm}
          label={confirmLabel ?? t('auth.confirmPassword')}
          autoComplete="new-password"
          fullWidth
        />
      ) : null}
    </>
  );
}
