import ArrowBack from '@mui/icons-material/ArrowBack';
import Delete from '@mui/icons-material/Delete';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Sell from '@mui/icons-material/Sell';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { ApplicationDetail } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { DataTable, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { QueryPending } from '../../ui/QueryPending';
import { Section } from '../../ui/Section';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { Can } from '../access/Can';
import { formatAt } from '../clusters/format';
import { HealthChip } from '../environments/HealthChip';
import { StatusChip as RunStatusChip } from '../pipelines/StatusChip';
import { useApplicationQuery, useDeleteApplicationMutation } from './api';
import { ApplicationPods } from './ApplicationPods';

type Env = ApplicationDetail['environments'][number];
type Run = ApplicationDetail['runs'][number];
type Tag = ApplicationDetail['imageTags'][number];

/** One fact of the overview: a label and its value, side by side on a wide screen, stacked on a phone. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '10rem 1fr' }, gap: { sm: 2 }, py: 0.5 }}
    >
      <Typography color="text.secondary">{label}</Typography>
      <Typography component="div" sx={{ overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * The microservice overview: where it comes from, its health in each environment, its pods and
 * their logs, its runs and image tags.
 */
export default function ApplicationDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = useApplicationQuery(id, { pollingInterval: 15_000 });
  const app = query.data;
  useDocumentTitle(app?.name ?? t('applications.title'));
  const deletion = useConfirmDelete(
    useDeleteApplicationMutation(),
    (a: ApplicationDetail) => ({
      title: t('applications.deleteTitle', { name: a.name }),
      body: t('applications.deleteBody'),
    }),
    () => void navigate('/applications'),
  );

  const envColumns: Column<Env>[] = [
    { id: 'environment', header: t('applications.detail.environment'), cell: (e) => e.environmentName },
    {
      id: 'health',
      header: t('applications.columns.health'),
      cell: (e) => (
        <Stack spacing={0.5}>
          <HealthChip health={e.health} />
          {e.healthMessage ? (
            <Typography variant="caption" color="text.secondary">
              {e.healthMessage}
            </Typography>
          ) : null}
        </Stack>
      ),
    },
    {
      id: 'image',
      header: t('applications.columns.image'),
      hideBelow: 'sm',
      cell: (e) => e.image ?? '—',
      sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' },
    },
    {
      id: 'deployedAt',
      header: t('applications.detail.deployedAt'),
      hideBelow: 'sm',
      cell: (e) =>
        e.runId ? (
          <Link component={RouterLink} to={`/pipelines/runs/${e.runId}`}>
            {formatAt(e.deployedAt, i18n.language)}
          </Link>
        ) : (
          formatAt(e.deployedAt, i18n.language)
        ),
    },
  ];
  const runColumns: Column<Run>[] = [
    {
      id: 'name',
      header: t('applications.detail.run'),
      cell: (r) => (
        <Link component={RouterLink} to={`/pipelines/runs/${r.id}`}>
          {r.name}
        </Link>
      ),
    },
    {
      id: 'status',
      header: t('applications.detail.status'),
      cell: (r) => <RunStatusChip status={r.status} />,
    },
    {
      id: 'trigger',
      header: t('applications.detail.trigger'),
      hideBelow: 'sm',
      cell: (r) => t(`applications.triggers.${r.trigger.kind}`, { defaultValue: r.trigger.kind }),
    },
    {
      id: 'queuedAt',
      header: t('applications.detail.queuedAt'),
      hideBelow: 'sm',
      cell: (r) => formatAt(r.queuedAt, i18n.language),
    },
  ];
  const tagColumns: Column<Tag>[] = [
    { id: 'tag', header: t('applications.detail.tag'), cell: (x) => x.tag, sx: { fontFamily: 'monospace' } },
    {
      id: 'digest',
      header: t('applications.detail.digest'),
      hideBelow: 'sm',
      cell: (x) => <span title={x.digest}>{x.digest.slice(0, 19)}</span>,
      sx: { fontFamily: 'monospace' },
    },
    {
      id: 'updatedAt',
      header: t('applications.detail.pushedAt'),
      cell: (x) => formatAt(x.updatedAt, i18n.language),
    },
  ];

  if (!app) return <QueryPending query={query} what={t('applications.detail.loadError')} />;
  return (
    <Box data-testid="application-page" sx={{ maxWidth: 1200 }}>
      <Link
        component={RouterLink}
        to="/applications"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}
      >
        <ArrowBack
          fontSize="small"
          sx={{ transform: (th) => (th.direction === 'rtl' ? 'scaleX(-1)' : 'none') }}
        />{' '}
        {t('applications.title')}
      </Link>
      <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
          {app.name}
        </Typography>
        <HealthChip health={app.health} />
        <Box sx={{ flex: 1 }} />
        {app.pipelineId ? (
          <Button startIcon={<PlayArrow />} component={RouterLink} to={`/pipelines/${app.pipelineId}`}>
            {t('applications.detail.runPipeline')}
          </Button>
        ) : null}
        <Can permission="applications:delete">
          {(allowed) => (
            <Button
              color="error"
              startIcon={<Delete />}
              disabled={!allowed}
              onClick={() => deletion.ask(app)}
            >
              {t('common.delete')}
            </Button>
          )}
        </Can>
      </Stack>
      {app.description ? <Typography sx={{ mb: 2 }}>{app.description}</Typography> : null}
      <Section id="application-overview-title" title={t('applications.detail.overview')}>
        <Fact label={t('applications.form.repository')}>
          {app.repositoryName ? `${app.repositoryName} · ${app.branch}` : '—'}
          {app.repositoryUrl ? (
            <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
              {app.repositoryUrl}
            </Typography>
          ) : null}
        </Fact>
        <Fact label={t('applications.form.image')}>
          <span style={{ fontFamily: 'monospace' }}>{app.image}</span>
        </Fact>
        <Fact label={t('applications.form.pipeline')}>
          {app.pipelineId ? (
            <Link component={RouterLink} to={`/pipelines/${app.pipelineId}`}>
              {app.pipelineName}
            </Link>
          ) : (
            '—'
          )}
        </Fact>
        <Fact label={t('applications.columns.service')}>{`${app.serviceType} · ${app.port}`}</Fact>
        <Fact label={t('applications.form.namespace')}>{app.namespace}</Fact>
        <Fact label={t('applications.form.serviceUrl')}>
          {app.serviceUrl ? (
            <Link href={app.serviceUrl} target="_blank" rel="noreferrer">
              {app.serviceUrl}
            </Link>
          ) : (
            '—'
          )}
        </Fact>
      </Section>
      <Section id="application-environments-title" title={t('applications.detail.environments')}>
        <DataTable
          aria-labelledby="application-environments-title"
          columns={envColumns}
          rows={app.environments}
          getRowId={(e) => e.environmentId}
          rowTestId="application-environment-row"
        />
      </Section>
      <ApplicationPods app={app} />
      <Section id="application-runs-title" title={t('applications.detail.runs')}>
        <DataTable
          aria-labelledby="application-runs-title"
          columns={runColumns}
          rows={app.runs}
          getRowId={(r) => r.id}
          rowTestId="application-run-row"
          empty={
            <EmptyState icon={PlayArrow} title={t('applications.detail.noRuns')}>
              {app.pipelineId ? t('applications.detail.noRunsBody') : t('applications.detail.noPipeline')}
            </EmptyState>
          }
        />
      </Section>
      <Section id="application-tags-title" title={t('applications.detail.imageTags')}>
        <DataTable
          aria-labelledby="application-tags-title"
          columns={tagColumns}
          rows={app.imageTags}
          getRowId={(x) => x.tag}
          rowTestId="application-tag-row"
          empty={
            <EmptyState icon={Sell} title={t('applications.detail.noTags')}>
              {t('applications.detail.noTagsBody')}
            </EmptyState>
          }
        />
      </Section>
      {deletion.dialog}
    </Box>
  );
}
