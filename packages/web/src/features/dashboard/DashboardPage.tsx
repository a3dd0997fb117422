import CheckCircle from '@mui/icons-material/CheckCircle';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import {
  APPLICATION_HEALTH,
  PIPELINE_RUN_STATUSES,
  type Dashboard,
  type GettingStartedStep,
} from '@slipway/contracts';
import { AreaPage } from '../../ui/AreaPage';
import { DataTable, type Column } from '../../ui/DataTable';
import { QueryPending } from '../../ui/QueryPending';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { usePermission } from '../access/usePermission';
import { formatAt } from '../clusters/format';
import { ClusterStatusChip } from '../clusters/ClusterStatusChip';
import { HealthChip } from '../environments/HealthChip';
import { StatusChip as RunStatusChip } from '../pipelines/StatusChip';
import { QuickSetupButton } from '../quick-setup/QuickSetupButton';
import { useDashboardQuery } from './api';

/** Where each getting-started step is done. */
const STEP_LINKS: Record<GettingStartedStep, string> = {
  cluster: '/clusters',
  application: '/applications/new',
  pipeline: '/pipelines/new',
  run: '/pipelines',
  deployment: '/environments',
};

type Run = NonNullable<Dashboard['runs']>['recent'][number];

/** A card of the dashboard: a heading and what it shows. */
function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 2, minWidth: 0 }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Counts by status, zeroes left out; `render` draws one status. */
function Counts<K extends string>({
  counts,
  order,
  render,
}: {
  counts: Record<K, number>;
  order: readonly K[];
  render: (key: K) => ReactNode;
}) {
  const shown = order.filter((k) => counts[k] > 0);
  if (!shown.length) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, mb: 1 }}>
      {shown.map((k) => (
        <Stack key={k} direction="row" spacing={0.5} alignItems="center" data-testid={`count-${k}`}>
          {render(k)}
          <Typography variant="body2">{counts[k]}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}

/** The getting-started card's shortcut: quick setup, for those who may create applications. */
function QuickSetupEntry() {
  const { t } = useTranslation();
  const { allowed, isLoading } = usePermission('applications:create');
  if (isLoading || !allowed) return null;
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start', mb: 2 }} data-testid="dashboard-quick-setup">
      <Typography variant="body2" color="text.secondary">
        {t('quickSetup.entryHint')}
      </Typography>
      <QuickSetupButton variant="contained" />
    </Stack>
  );
}

/**
 * Where a workspace lands: a getting-started checklist until its first deployment, then its
 * applications (failing first), its recent runs and its clusters. A section the person may not
 * view is not shown.
 */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('dashboard.title'));
  const query = useDashboardQuery(undefined, { pollingInterval: 30_000 });
  const d = query.data;
  if (!d) return <QueryPending query={query} what={t('dashboard.loadError')} />;
  const started = d.gettingStarted.every((s) => s.done);
  const runColumns: Column<Run>[] = [
    {
      id: 'run',
      header: t('dashboard.runs.run'),
      cell: (r) => (
        <Link component={RouterLink} to={`/pipelines/runs/${r.id}`}>
          {r.name}
        </Link>
      ),
    },
    { id: 'pipeline', header: t('dashboard.runs.pipeline'), hideBelow: 'sm', cell: (r) => r.pipelineName },
    { id: 'status', header: t('dashboard.runs.status'), cell: (r) => <RunStatusChip status={r.status} /> },
    {
      id: 'trigger',
      header: t('dashboard.runs.trigger'),
      hideBelow: 'md',
      cell: (r) => t(`applications.triggers.${r.trigger.kind}`, { defaultValue: r.trigger.kind }),
    },
    {
      id: 'queued',
      header: t('dashboard.runs.queued'),
      hideBelow: 'sm',
      cell: (r) => formatAt(r.queuedAt, i18n.language),
    },
  ];

  return (
    <AreaPage id="dashboard" title={t('dashboard.title')}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        {!started ? (
          <Card id="dashboard-getting-started" title={t('dashboard.gettingStarted.title')}>
            <QuickSetupEntry />
            <Typography color="text.secondary">{t('dashboard.gettingStarted.body')}</Typography>
            <List dense>
              {d.gettingStarted.map((s) => (
                <ListItem
                  key={s.step}
                  data-testid="getting-started-step"
                  data-done={s.done ? 'true' : 'false'}
                  disableGutters
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    {s.done ? (
                      <CheckCircle color="success" aria-label={t('dashboard.gettingStarted.done')} />
                    ) : (
                      <RadioButtonUnchecked
                        color="disabled"
                        aria-label={t('dashboard.gettingStarted.todo')}
                      />
                    )}
                  </ListItemIcon>
                  <ListItemText
                    primary={
                      s.done ? (
                        t(`dashboard.gettingStarted.steps.${s.step}`)
                      ) : (
                        <Link component={RouterLink} to={STEP_LINKS[s.step]}>
                          {t(`dashboard.gettingStarted.steps.${s.step}`)}
                        </Link>
                      )
                    }
                    secondary={t(`dashboard.gettingStarted.hints.${s.step}`)}
                  />
                </ListItem>
              ))}
            </List>
          </Card>
        ) : null}
        {d.applications ? (
          <Card
            id="dashboard-applications"
            title={t('dashboard.applications.title', { count: d.applications.total })}
          >
            <Counts
              counts={d.applications.byHealth}
              order={APPLICATION_HEALTH}
              render={(h) => <HealthChip health={h} />}
            />
            {d.applications.attention.length ? (
              <List dense disablePadding>
                {d.applications.attention.map((a) => (
                  <ListItem key={a.id} disableGutters sx={{ gap: 1 }} data-testid="dashboard-application">
                    <HealthChip health={a.health} />
                    <Link component={RouterLink} to={`/applications/${a.id}`}>
                      {a.name}
                    </Link>
                  </ListItem>
                ))}
              </List>
            ) : (
              <Typography color="text.secondary">
                {t('dashboard.applications.none')}{' '}
                <Link component={RouterLink} to="/applications/new">
                  {t('dashboard.applications.create')}
                </Link>
              </Typography>
            )}
          </Card>
        ) : null}
        {d.clusters ? (
          <Card id="dashboard-clusters" title={t('dashboard.clusters.title')}>
            {d.clusters.length ? (
              <List dense disablePadding>
                {d.clusters.map((c) => (
                  <ListItem
                    key={c.id}
                    disableGutters
                    sx={{ gap: 1, flexWrap: 'wrap' }}
                    data-testid="dashboard-cluster"
                  >
                    <ClusterStatusChip status={c.status} />
                    <Link component={RouterLink} to={`/clusters/${c.id}`}>
                      {c.name}
                    </Link>
                    <Typography variant="body2" color="text.secondary">
                      {c.lastHeartbeatAt
                        ? t('dashboard.clusters.heartbeat', {
                            at: formatAt(c.lastHeartbeatAt, i18n.language),
                          })
                        : t('dashboard.clusters.noHeartbeat')}
                    </Typography>
                  </ListItem>
                ))}
              </List>
            ) : (
              <Typography color="text.secondary">
                {t('dashboard.clusters.none')}{' '}
                <Link component={RouterLink} to="/clusters">
                  {t('dashboard.clusters.attach')}
                </Link>
              </Typography>
            )}
          </Card>
        ) : null}
        {d.runs ? (
          <Box sx={{ gridColumn: '1 / -1', minWidth: 0 }}>
            <Card id="dashboard-runs" title={t('dashboard.runs.title')}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {t('dashboard.runs.lastWeek')}
              </Typography>
              <Counts
                counts={d.runs.lastWeek}
                order={PIPELINE_RUN_STATUSES}
                render={(s) => <RunStatusChip status={s} />}
              />
              <DataTable
                aria-labelledby="dashboard-runs"
                columns={runColumns}
                rows={d.runs.recent}
                getRowId={(r) => r.id}
                rowTestId="dashboard-run"
                empty={<Typography color="text.secondary">{t('dashboard.runs.none')}</Typography>}
              />
            </Card>
          </Box>
        ) : null}
      </Box>
    </AreaPage>
  );
}
