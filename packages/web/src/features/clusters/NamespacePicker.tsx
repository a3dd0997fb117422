import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Cluster } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
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
  const [save, { isLoading }] = useSetClusterNamespacesMutation();
  const offered = cluster.limitedAgentPermission
    ? cluster.namespaces.filter((ns) => cluster.allowedNamespaces.includes(ns))
    : cluster.namespaces;
  const [chosen, setChosen] = useState<string[]>(cluster.selectedNamespaces);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function submit() {
    setError(null);
    setSaved(false);
    const answer = await save({ id: cluster.id, selectedNamespaces: chosen });
    if (answer.error) {
      setError(errorMessage(answer.error));
      return;
    }
    setSaved(true);
    onSaved?.(answer.data);
  }

  return (
    <Stack spacing={1} data-testid="namespace-picker">
      <FormAlert message={error} />
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
                    setChosen((c) => (e.target.checked ? [...c, ns] : c.filter((x) => x !== ns)))
                  }
                />
              }
            />
          ))}
        </FormGroup>
      )}
      <Stack direction="row" spacing={2} alignItems="center" justifyContent="flex-end">
        {saved && !onSaved ? <Typography role="status">{t('clusters.detail.saved')}</Typography> : null}
        <Button variant="contained" onClick={() => void submit()} loading={isLoading}>
          {submitLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
