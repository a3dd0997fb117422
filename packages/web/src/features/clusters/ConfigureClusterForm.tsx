import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CLUSTER_TYPES,
  clusterCreateSchema,
  LIMITED_AGENT_DEFAULT_NAMESPACES,
  type ClusterCreated,
} from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateClusterMutation } from './api';

/** Attach step 1: name, type, private flag and tunnel config, registry prefix, limited agent. */
export function ConfigureClusterForm({ onCreated }: { onCreated: (created: ClusterCreated) => void }) {
  const { t } = useTranslation();
  const [create, { isLoading }] = useCreateClusterMutation();
  const form = useFormFields({
    name: '',
    type: '',
    tunnelConfig: '',
    publicRegistryPrefix: '',
    allowedNamespaces: LIMITED_AGENT_DEFAULT_NAMESPACES.join(', '),
  });
  const [isPrivate, setPrivate] = useState(false);
  const [limited, setLimited] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    const v = form.values;
    const body = form.parse(clusterCreateSchema, {
      name: v.name,
      type: v.type || undefined,
      private: isPrivate,
      ...(isPrivate ? { tunnelConfig: v.tunnelConfig } : {}),
      publicRegistryPrefix: v.publicRegistryPrefix,
      limitedAgentPermission: limited,
      allowedNamespaces: limited
        ? v.allowedNamespaces
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [...LIMITED_AGENT_DEFAULT_NAMESPACES],
    });
    if (!body) return;
    const answer = await create(body);
    if (answer.error) {
      const { fields, message } = formErrors(answer.error);
      form.showErrors(fields);
      setServerError(message);
      return;
    }
    onCreated(answer.data);
  }

  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={onSubmit}
      data-testid="configure-cluster"
      data-tour="cluster-attach-configure"
    >
      <FormAlert message={serverError} />
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField {...form.field('name')} label={t('clusters.form.name')} autoFocus fullWidth />
        <TextField {...form.field('type')} select label={t('clusters.form.type')} fullWidth>
          {CLUSTER_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {t(`clusters.types.${type}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          {...form.field('publicRegistryPrefix')}
          label={t('clusters.form.publicRegistryPrefix')}
          placeholder="registry.example.com/team"
          fullWidth
        />
        <FormControlLabel
          control={<Switch checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} />}
          label={t('clusters.form.private')}
        />
        {isPrivate ? (
          <TextField
            {...form.field('tunnelConfig')}
            label={t('clusters.form.tunnelConfig')}
            multiline
            minRows={3}
            fullWidth
          />
        ) : null}
        <FormControlLabel
          control={<Switch checked={limited} onChange={(e) => setLimited(e.target.checked)} />}
          label={t('clusters.form.limited')}
        />
        {limited ? (
          <TextField
            {...form.field('allowedNamespaces')}
            label={t('clusters.form.allowedNamespaces')}
            helperText={form.errors.allowedNamespaces ?? t('clusters.form.allowedNamespacesHint')}
            fullWidth
          />
        ) : null}
        <Stack direction="row" justifyContent="flex-end">
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('clusters.form.next')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
