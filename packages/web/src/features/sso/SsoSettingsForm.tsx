import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ssoSettingsRequestSchema,
  type Role,
  type SsoGroupRole,
  type SsoSettingsResponse,
  type Workspace,
} from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { PasswordField } from '../../ui/PasswordField';
import { useFormFields } from '../../ui/useFormFields';
import { useSaveSsoSettingsMutation, useTestSsoMutation, type SsoTestResult } from './api';
import { GroupRoleRows } from './GroupRoleRows';

const TEXT_FIELDS = ['url', 'baseDn', 'bindDn', 'userQuery', 'groupQuery', 'emailAttribute'] as const;

/**
 * LDAP settings: directory URL, bind DN and password (write-only: a stored one is only hinted at),
 * base DN, user and group queries, e-mail attribute, group → role mappings, and on/off. After a
 * save that changed how Slipway reaches the directory the server asks for a new test.
 */
export function SsoSettingsForm({
  settings,
  canEdit,
  workspaces,
  roles,
}: {
  settings: SsoSettingsResponse;
  canEdit: boolean;
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
}) {
  const { t } = useTranslation();
  const form = useFormFields({
    url: settings.url,
    baseDn: settings.baseDn,
    bindDn: settings.bindDn,
    bindPassword: '',
    userQuery: settings.userQuery,
    groupQuery: settings.groupQuery,
    emailAttribute: settings.emailAttribute || 'mail',
    caCertificate: settings.caCertificate,
  });
  const [enabled, setEnabled] = useState(settings.enabled);
  const [startTls, setStartTls] = useState(settings.startTls);
  const [skipTlsVerify, setSkipTlsVerify] = useState(settings.skipTlsVerify);
  const [groupRoles, setGroupRoles] = useState<SsoGroupRole[]>(settings.groupRoles);
  const [save] = useSaveSsoSettingsMutation();
  const [test, testing] = useTestSsoMutation();
  const [notice, setNotice] = useState<{ severity: 'success' | 'warning'; text: string } | null>(null);
  const [testResult, setTestResult] = useState<SsoTestResult | null>(null);

  function body() {
    const { bindPassword, ...rest } = form.values;
    return {
      ...rest,
      ...(bindPassword ? { bindPassword } : {}),
      enabled,
      groupRoles,
      startTls,
      skipTlsVerify,
    };
  }

  // The switches and group rows are not form fields: a refusal about one (StartTLS) has nothing to
  // sit under, so its message stays in the alert above.
  const onSubmit = form.handleSubmit({
    schema: ssoSettingsRequestSchema,
    input: body(),
    mutate: (parsed) => save(parsed),
    onSuccess: (saved) =>
      setNotice(
        saved.needsRetest
          ? { severity: 'warning', text: saved.message ?? t('sso.retest') }
          : { severity: 'success', text: t('sso.saved') },
      ),
  });

  async function onTest() {
    setTestResult(null);
    const answer = await test(body());
    setTestResult(answer.error ? { ok: false, message: errorMessage(answer.error) } : answer.data);
  }

  const hint = settings.hasBindPassword ? t('sso.bindPasswordSet') : t('sso.bindPasswordUnset');
  return (
    <form ref={form.formRef} noValidate onSubmit={onSubmit} aria-labelledby="sso-heading">
      <FormAlert message={form.formError} />
      {notice && form.succeeded ? (
        <Alert severity={notice.severity} sx={{ mb: 2 }} data-testid="sso-notice">
          {notice.text}
        </Alert>
      ) : null}
      <Stack spacing={2}>
        <FormControlLabel
          control={
            <Switch checked={enabled} disabled={!canEdit} onChange={(e) => setEnabled(e.target.checked)} />
          }
          label={t('sso.enabled')}
        />
        {TEXT_FIELDS.map((f) => (
          <TextField key={f} {...form.field(f)} label={t(`sso.fields.${f}`)} disabled={!canEdit} fullWidth />
        ))}
        <PasswordField
          {...form.field('bindPassword')}
          label={t('sso.fields.bindPassword')}
          placeholder={settings.hasBindPassword ? settings.bindPassword : ''}
          helperText={form.errors.bindPassword ?? hint}
          autoComplete="new-password"
          disabled={!canEdit}
          fullWidth
        />
        <FormControlLabel
          control={
            <Switch checked={startTls} disabled={!canEdit} onChange={(e) => setStartTls(e.target.checked)} />
          }
          label={t('sso.startTls')}
        />
        <FormControlLabel
          control={
            <Switch
              checked={skipTlsVerify}
              disabled={!canEdit}
              onChange={(e) => setSkipTlsVerify(e.target.checked)}
            />
          }
          label={t('sso.skipTlsVerify')}
        />
        <TextField
          {...form.field('caCertificate')}
          label={t('sso.fields.caCertificate')}
          helperText={form.errors.caCertificate ?? t('sso.caCertificateHint')}
          placeholder="-----BEGIN CERTIFICATE-----"
          multiline
          minRows={3}
          maxRows={10}
          disabled={!canEdit || skipTlsVerify}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
          fullWidth
        />
        <Typography variant="subtitle2" component="h3">
          {t('sso.groupRoles')}
        </Typography>
        <GroupRoleRows
          rows={groupRoles}
          onChange={setGroupRoles}
          workspaces={workspaces}
          roles={roles}
          disabled={!canEdit}
        />
        {testResult ? (
          <Alert severity={testResult.ok ? 'success' : 'error'} data-testid="sso-test-result">
            {testResult.message}
          </Alert>
        ) : null}
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" loading={form.submitting} disabled={!canEdit}>
            {t('common.save')}
          </Button>
          <Button
            variant="outlined"
            loading={testing.isLoading}
            disabled={!canEdit}
            onClick={() => void onTest()}
          >
            {t('sso.test')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
