import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import {
  CLUSTER_TYPES,
  clusterCreateSchema,
  LIMITED_AGENT_DEFAULT_NAMESPACES,
  type ClusterCreated,
} from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateClusterMutation } from './api';
import { selectOptions } from '../../ui/select-options';

/** Attach step 1: name, type, private flag and tunnel config, registry prefix, limited agent. */
export function ConfigureClusterForm({ onCreated }: { onCreated: (created: ClusterCreated) => void }) {
  const { t } = useTranslation();
  const [create] = useCreateClusterMutation();
  const form = useFormFields({
    name: '',
    type: '',
    tunnelConfig: '',
    publicRegistryPrefix: '',
    allowedNamespaces: LIMITED_AGENT_DEFAULT_NAMESPACES.join(', '),
    private: false,
    limited: false,
  });
  const v = form.values;
  const onSubmit = form.handleSubmit({
    schema: clusterCreateSchema,
    input: {
      name: v.name,
      type: v.type || undefined,
      private: v.private,
      ...(v.private ? { tunnelConfig: v.tunnelConfig } : {}),
      publicRegistryPrefix: v.publicRegistryPrefix,
      limitedAgentPermission: v.limited,
      allowedNamespaces: v.limited
        ? v.allowedNamespaces
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [...LIMITED_AGENT_DEFAULT_NAMESPACES],
    },
    mutate: (body) => create(body),
    onSuccess: (created) => onCreated(created),
  });

  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={onSubmit}
      data-testid="configure-cluster"
      data-tour="cluster-attach-configure"
    >
      <FormAlert message={form.formError} />
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField {...form.field('name')} label={t('clusters.form.name')} autoFocus fullWidth />
        <TextField {...form.field('type')} select label={t('clusters.form.type')} fullWidth>
          {selectOptions(CLUSTER_TYPES, (type) => [type, t(`clusters.types.${type}`)])}
        </TextField>
        <TextField
          {...form.field('publicRegistryPrefix')}
          label={t('clusters.form.publicRegistryPrefix')}
          placeholder="registry.example.com/team"
          fullWidth
        />
        <FormControlLabel
          control={
            <Switch checked={v.private} onChange={(e) => form.setValue('private', e.target.checked)} />
          }
          label={t('clusters.form.private')}
        />
        {v.private ? (
          <TextField
            {...form.field('tunnelConfig')}
            label={t('clusters.form.tunnelConfig')}
            multiline
            minRows={3}
            fullWidth
          />
        ) : null}
        <FormControlLabel
          control={
            <Switch checked={v.limited} onChange={(e) => form.setValue('limited', e.target.checked)} />
          }
          label={t('clusters.form.limited')}
        />
        {v.limited ? (
          <TextField
            {...form.field('allowedNamespaces')}
            label={t('clusters.form.allowedNamespaces')}
            helperText={form.errors.allowedNamespaces ?? t('clusters.form.allowedNamespacesHint')}
            fullWidth
          />
        ) : null}
        <Stack direction="row" justifyContent="flex-end">
          <Button type="submit" variant="contained" loading={form.submitting}>
            {t('clusters.form.next')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
