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
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Secret } from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { LoadError } from '../../ui/LoadError';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { formatTime } from '../pipelines/format';
import { useDeleteSecretMutation, useSecretsQuery } from './api';
import { SecretDialog } from './SecretDialog';
import { VariablesList } from './VariablesList';

const PAGE_SIZES = [10, 25, 50];

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
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(PAGE_SIZES[0]!);
  const [deleting, setDeleting] = useState<Secret | null>(null);
  const [remove, removed] = useDeleteSecretMutation();
  const { data, error, isLoading, isFetching, refetch } = useSecretsQuery({
    _start: String(page * rowsPerPage),
    _end: String((page + 1) * rowsPerPage),
  });
  if (isLoading) return <Skeleton lines={5} />;
  if (!data)
    return (
      <LoadError
        what={t('secretsPage.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  if (data.total === 0)
    return (
      <EmptyState icon={Key} title={t('secretsPage.noSecrets')}>
        {t('secretsPage.noSecretsBody')}
      </EmptyState>
    );
  return (
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
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(s.updatedAt, i18n.language)}</TableCell>
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
      <TablePagination
        component="div"
        count={data.total}
        page={page}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_e, p) => setPage(p)}
        onRowsPerPageChange={(e) => {
          setRowsPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
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
  );
}
