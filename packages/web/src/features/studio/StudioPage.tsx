import AccountTree from '@mui/icons-material/AccountTree';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { QueryPending } from '../../ui/QueryPending';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { usePipelinesQuery, useRunsQuery } from '../pipelines/api';
import { StatusChip } from '../pipelines/StatusChip';

const PICKER_SIZE = '100';
const RECENT_RUNS = '10';

/** A value that follows `value` once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * `/studio`: pick a pipeline (searchable) or a recent run to open on the canvas. The deep links
 * `/studio?pipeline=<id>` and `/studio?run=<id>` open one directly.
 */
export default function StudioPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  useDocumentTitle(t('nav.studio'));
  const pipeline = params.get('pipeline');
  const run = params.get('run');
  if (pipeline) return <Navigate to={`/studio/pipelines/${encodeURIComponent(pipeline)}`} replace />;
  if (run) return <Navigate to={`/studio/runs/${encodeURIComponent(run)}`} replace />;
  return (
    <Box sx={{ maxWidth: 1200, minWidth: 0 }} data-testid="studio-page">
      <Typography variant="h4" component="h1" sx={{ mb: 1 }}>
        {t('nav.studio')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 720 }}>
        {t('studioPage.intro')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
          alignItems: 'start',
        }}
      >
        <PipelinePicker />
        <RecentRuns />
      </Box>
    </Box>
  );
}

function PipelinePicker() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const needle = useSettled(search.trim(), 300);
  const query = usePipelinesQuery({
    _start: '0',
    _end: PICKER_SIZE,
    _sort: 'name',
    ...(needle ? { name: needle } : {}),
  });
  const rows = (query.data?.rows ?? []).filter((p) => p.name.toLowerCase().includes(needle.toLowerCase()));
  let body;
  if (!query.data) body = <QueryPending query={query} what={t('studioPage.picker.loadError')} lines={6} />;
  else if (rows.length === 0 && !needle)
    body = (
      <EmptyState
        icon={AccountTree}
        title={t('studioPage.picker.empty')}
        action={
          <Button variant="contained" component={RouterLink} to="/pipelines/new">
            {t('studioPage.picker.create')}
          </Button>
        }
      >
        {t('studioPage.picker.emptyBody')}
      </EmptyState>
    );
  else if (rows.length === 0)
    body = (
      <Typography color="text.secondary" data-testid="studio-no-match">
        {t('studioPage.picker.noMatch')}
      </Typography>
    );
  else
    body = (
      <List dense aria-labelledby="studio-pipelines-title" data-testid="studio-pipelines">
        {rows.map((p) => (
          <ListItemButton key={p.id} component={RouterLink} to={`/studio/pipelines/${p.id}`}>
            <ListItemText
              primary={p.name}
              secondary={p.description || t('studioPage.version', { version: p.version })}
            />
          </ListItemButton>
        ))}
      </List>
    );
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="studio-pipelines-title"
      sx={{ p: 2, minWidth: 0 }}
    >
      <Typography variant="h6" component="h2" id="studio-pipelines-title" sx={{ mb: 1.5 }}>
        {t('studioPage.picker.title')}
      </Typography>
      <TextField
        label={t('studioPage.picker.search')}
        type="search"
        size="small"
        fullWidth
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        sx={{ mb: 1 }}
      />
      {body}
    </Paper>
  );
}

function RecentRuns() {
  const { t } = useTranslation();
  const query = useRunsQuery({ _start: '0', _end: RECENT_RUNS, _order: 'DESC' });
  let body;
  if (!query.data) body = <QueryPending query={query} what={t('studioPage.runs.loadError')} lines={4} />;
  else if (query.data.rows.length === 0)
    body = <Typography color="text.secondary">{t('studioPage.runs.empty')}</Typography>;
  else
    body = (
      <List dense aria-labelledby="studio-runs-title" data-testid="studio-runs">
        {query.data.rows.map((r) => (
          <ListItemButton key={r.id} component={RouterLink} to={`/studio/runs/${r.id}`}>
            <ListItemText primary={`${r.name} #${r.number}`} sx={{ minWidth: 0, overflowWrap: 'anywhere' }} />
            <StatusChip status={r.status} />
          </ListItemButton>
        ))}
      </List>
    );
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="studio-runs-title"
      sx={{ p: 2, minWidth: 0 }}
    >
      <Typography variant="h6" component="h2" id="studio-runs-title" sx={{ mb: 1.5 }}>
        {t('studioPage.runs.title')}
      </Typography>
      {body}
      <Box sx={{ mt: 1 }}>
        <Link component={RouterLink} to="/pipelines">
          {t('studioPage.runs.all')}
        </Link>
      </Box>
    </Paper>
  );
}
