import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Cluster } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useFormFields } from '../../ui/useFormFields';
import { useSetClusterNamespacesMutation } from './api';

/** The namespaces a cluster's logs are collected from (a limited agent offers only its own). */
export function NamespacePicker({
  cluster,
  submitLabel,
  onSaved,
}: {
  cluster: Cluster;
  submitLabel: string;
  onSaved?: (cluster: Cluster) => void;
}) {
  const { t } = useTranslation();
  const [save] = useSetClusterNamespacesMutation();
  const offered = cluster.limitedAgentPermission
    ? cluster.namespaces.filter((ns) => cluster.allowedNamespaces.includes(ns))
    : cluster.namespaces;
  const form = useFormFields({ chosen: cluster.selectedNamespaces });
  const chosen = form.values.chosen;
  const submit = form.handleSubmit({
    mutate: () => save({ id: cluster.id, selectedNamespaces: chosen }),
    onSuccess: (saved) => onSaved?.(saved),
  });

  return (
    <Stack spacing={1} data-testid="namespace-picker">
      <FormAlert message={form.formError} />
      {offered.length === 0 ? (
        <Typography color="text.secondary">{t('clusters.namespaces.none')}</Typography>
      ) : (
        <FormGroup aria-label={t('clusters.detail.logNamespaces')}>
          {offered.map((ns) => (
            <FormControlLabel
              key={ns}
              label={ns}
              control={
                <Checkbox
                  checked={chosen.includes(ns)}
                  onChange={(e) =>
                    form.setValue(
                      'chosen',
                      e.target.checked ? [...chosen, ns] : chosen.filter((x) => x !== ns),
                    )
                  }
                />
              }
            />
          ))}
        </FormGroup>
      )}
      <Stack direction="row" spacing={2} alignItems="center" justifyContent="flex-end">
        {form.succeeded && !onSaved ? (
          <Typography role="status">{t('clusters.detail.saved')}</Typography>
        ) : null}
        <Button variant="contained" onClick={() => void submit()} loading={form.submitting}>
          {submitLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
