import Add from '@mui/icons-material/Add';
import Key from '@mui/icons-material/Key';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Secret } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { ListPager, usePaging } from '../../ui/ListPager';
import { ListStates } from '../../ui/ListStates';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { formatTime } from '../pipelines/format';
import { useDeleteSecretMutation, useSecretsQuery } from './api';
import { SecretDialog } from './SecretDialog';
import { VariablesList } from './VariablesList';

/** Secrets (values write-only, never shown again) and, in a second tab, variables. */
export default function SecretsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('secretsPage.title'));
  const [tab, setTab] = useState<'secrets' | 'variables'>('secrets');
  const [editing, setEditing] = useState<Secret | 'new' | null>(null);
  return (
    <Box data-testid="secrets-page" sx={{ maxWidth: 1200 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {t('secretsPage.title')}
        </Typography>
        {tab === 'secrets' ? (
          <PermissionButton
            permission="secrets:create"
            variant="contained"
            startIcon={<Add />}
            sx={{ ml: 'auto' }}
            onClick={() => setEditing('new')}
          >
            {t('secretsPage.newSecret')}
          </PermissionButton>
        ) : null}
      </Box>
      <Tabs value={tab} onChange={(_e, v: typeof tab) => setTab(v)} sx={{ mb: 2 }}>
        <Tab value="secrets" label={t('secretsPage.secretsTab')} />
        <Tab value="variables" label={t('secretsPage.variablesTab')} />
      </Tabs>
      {tab === 'secrets' ? <SecretsList onEdit={setEditing} /> : <VariablesList />}
      {editing ? (
        <SecretDialog
          key={editing === 'new' ? 'new' : editing.id}
          secret={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Box>
  );
}

function SecretsList({ onEdit }: { onEdit: (s: Secret) => void }) {
  const { t, i18n } = useTranslation();
  const paging = usePaging();
  const [deleting, setDeleting] = useState<Secret | null>(null);
  const [remove, removed] = useDeleteSecretMutation();
  const list = useSecretsQuery(paging.range);
  return (
    <ListStates
      query={list}
      lines={5}
      what={t('secretsPage.loadError')}
      empty={
        <EmptyState icon={Key} title={t('secretsPage.noSecrets')}>
          {t('secretsPage.noSecretsBody')}
        </EmptyState>
      }
    >
      {(data) => (
        <>
          <TableContainer>
            <Table size="small" aria-label={t('secretsPage.secretsTab')}>
              <TableHead>
                <TableRow>
                  {(['name', 'type', 'keys', 'description', 'updated'] as const).map((c) => (
                    <TableCell key={c}>{t(`secretsPage.columns.${c}`)}</TableCell>
                  ))}
                  <TableCell align="right">{t('secretsPage.columns.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.rows.map((s) => (
                  <TableRow key={s.id} data-testid="secret-row">
                    <TableCell>
                      {s.name} {s.global ? <Chip size="small" label={t('secretsPage.globalChip')} /> : null}
                    </TableCell>
                    <TableCell>{t(`secretsPage.types.${s.type}`)}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{s.keys.join(', ')}</TableCell>
                    <TableCell>{s.description}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {formatTime(s.updatedAt, i18n.language)}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <PermissionButton size="small" permission="secrets:edit" onClick={() => onEdit(s)}>
                        {t('secretsPage.edit')}
                      </PermissionButton>
                      <PermissionButton
                        size="small"
                        color="error"
                        permission="secrets:delete"
                        onClick={() => {
                          removed.reset();
                          setDeleting(s);
                        }}
                      >
                        {t('secretsPage.delete')}
                      </PermissionButton>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <ListPager paging={paging} count={data.total} />
          <ConfirmDialog
            open={deleting !== null}
            title={t('secretsPage.deleteTitle', { name: deleting?.name ?? '' })}
            body={t('secretsPage.deleteSecretBody')}
            confirmLabel={t('secretsPage.delete')}
            loading={removed.isLoading}
            error={removed.isError ? errorMessage(removed.error) : null}
            onClose={() => setDeleting(null)}
            onConfirm={() =>
              void remove(deleting!.id)
                .unwrap()
                .then(() => setDeleting(null))
                .catch(() => undefined)
            }
          />
        </>
      )}
    </ListStates>
  );
}
