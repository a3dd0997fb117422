import AccountTree from '@mui/icons-material/AccountTree';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { RepositoryDetail } from '@slipway/contracts';
import { BackLink } from '../../ui/BackLink';
import type { Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { formatTime } from '../../ui/format';
import { QueryPending } from '../../ui/QueryPending';
import { TableSection } from '../../ui/TableSection';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { useDeleteRepositoryMutation, useRepositoryQuery } from './api';
import { CloneSection } from './CloneSection';
import { DeployTokensSection } from './DeployTokensSection';
import { EditRepositoryDialog } from './EditRepositoryDialog';
import { KindChip } from './KindChip';

type Branch = RepositoryDetail['branches'][number];

/** One fact of the repository: its term and what it is. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" color="text.secondary" sx={{ fontWeight: 500 }}>
        {term}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </>
  );
}

/**
 * One repository: its facts, where to clone it from (and, hosted, how to clone and push), a hosted
 * one's branches and deploy tokens; edit its description and default branch, or delete it.
 */
export default function RepositoryDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = useRepositoryQuery(id);
  const repository = query.data;
  useDocumentTitle(repository?.name ?? t('repositories.title'));
  const [editing, setEditing] = useState(false);
  const deletion = useConfirmDelete(
    useDeleteRepositoryMutation(),
    (r: RepositoryDetail) => ({
      title: t('repositories.detail.deleteTitle', { name: r.name }),
      body:
        r.kind === 'hosted' ? t('repositories.detail.deleteHosted') : t('repositories.detail.deleteExternal'),
    }),
    () => void navigate('/repositories'),
  );

  if (!repository) return <QueryPending query={query} what={t('repositories.detail.loadError')} lines={8} />;
  const hosted = repository.kind === 'hosted';
  const branchColumns: Column<Branch>[] = [
    {
      id: 'name',
      header: t('repositories.detail.branch'),
      cell: (b) => (
        <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <bdi dir="ltr">{b.name}</bdi>
          {b.name === repository.defaultBranch ? (
            <Chip size="small" variant="outlined" label={t('repositories.detail.defaultMark')} />
          ) : null}
        </Box>
      ),
      sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' },
    },
    {
      id: 'commit',
      header: t('repositories.detail.commit'),
      cell: (b) => (
        <Box component="code" dir="ltr" title={b.commit} sx={{ fontFamily: 'monospace' }}>
          {b.commit.slice(0, 7)}
        </Box>
      ),
    },
  ];

  return (
    <Box data-testid="repository-page" sx={{ maxWidth: 1200, minWidth: 0 }}>
      <BackLink to="/repositories">{t('repositories.detail.back')}</BackLink>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {repository.name}
        </Typography>
        <KindChip kind={repository.kind} />
        <Stack direction="row" spacing={1} useFlexGap sx={{ marginInlineStart: 'auto', flexWrap: 'wrap' }}>
          <PermissionButton
            permission="repositories:edit"
            variant="outlined"
            startIcon={<Edit />}
            onClick={() => setEditing(true)}
          >
            {t('repositories.detail.edit')}
          </PermissionButton>
          <PermissionButton
            permission="repositories:delete"
            color="error"
            variant="outlined"
            startIcon={<Delete />}
            onClick={() => deletion.ask(repository)}
          >
            {t('repositories.detail.delete')}
          </PermissionButton>
        </Stack>
      </Box>
      <Typography color={repository.description ? 'text.primary' : 'text.secondary'} sx={{ mb: 3 }}>
        {repository.description || t('repositories.detail.noDescription')}
      </Typography>
      <Stack spacing={3}>
        <Paper
          variant="outlined"
          component="section"
          aria-labelledby="repository-facts-title"
          sx={{ p: { xs: 2, md: 3 } }}
        >
          <Typography id="repository-facts-title" variant="h6" component="h2" sx={{ mb: 2 }}>
            {t('repositories.detail.facts')}
          </Typography>
          <Box
            component="dl"
            data-testid="repository-facts"
            sx={{
              m: 0,
              display: 'grid',
              columnGap: 3,
              rowGap: { xs: 0.5, sm: 1.5 },
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' },
              '& dd': { mb: { xs: 1.5, sm: 0 } },
            }}
          >
            <Fact term={t('repositories.detail.kind')}>{t(`repositories.kinds.${repository.kind}`)}</Fact>
            <Fact term={t('repositories.detail.defaultBranch')}>
              <Box component="code" dir="ltr" sx={{ fontFamily: 'monospace' }}>
                {repository.defaultBranch}
              </Box>
            </Fact>
            {hosted ? (
              <Fact term={t('repositories.detail.lastPush')}>
                {formatTime(repository.lastPushAt, i18n.language) || t('repositories.never')}
              </Fact>
            ) : null}
            <Fact term={t('repositories.detail.created')}>
              {formatTime(repository.createdAt, i18n.language)}
            </Fact>
          </Box>
        </Paper>
        <CloneSection repository={repository} />
        {hosted ? (
          <TableSection
            id="repository-branches-title"
            title={t('repositories.detail.branches')}
            columns={branchColumns}
            rows={repository.branches}
            getRowId={(b) => b.name}
            rowTestId="repository-branch-row"
            empty={
              <EmptyState icon={AccountTree} title={t('repositories.detail.noBranches')}>
                <Typography color="text.secondary">{t('repositories.detail.noBranchesBody')}</Typography>
              </EmptyState>
            }
          />
        ) : null}
        {hosted ? <DeployTokensSection repository={repository} /> : null}
      </Stack>
      {editing ? <EditRepositoryDialog repository={repository} onClose={() => setEditing(false)} /> : null}
      {deletion.dialog}
    </Box>
  );
}
