import Close from '@mui/icons-material/Close';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { alpha, useTheme, type Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineDetail } from '@slipway/contracts';
import { useAppDispatch } from '../../app/hooks';
import { errorMessage } from '../../ui/api-error';
import { actionsColumn } from '../../ui/ActionsTable';
import { timeColumn } from '../../ui/columns';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { DataTable, type Column } from '../../ui/DataTable';
import { FormAlert } from '../../ui/FormAlert';
import { QueryPending } from '../../ui/QueryPending';
import { Section } from '../../ui/Section';
import { Skeleton } from '../../ui/Skeleton';
import type { DefinitionDiagnostic } from '../../ui/yaml-diagnostics';
import { usePermission } from '../access/usePermission';
import { useMembersQuery } from '../team/api';
import {
  pipelinesApi,
  useLazyPipelineVersionQuery,
  usePipelineVersionQuery,
  useUpdatePipelineMutation,
} from './api';
import { lineDiff, type DiffLine, type LineDiff } from './line-diff';

/** CodeMirror loads only when a version is viewed (as the page's own editor does). */
const YamlEditor = lazy(() => import('../../ui/YamlEditor').then((m) => ({ default: m.YamlEditor })));
const NO_DIAGNOSTICS: DefinitionDiagnostic[] = [];

type VersionInfo = PipelineDetail['versions'][number];
const IDLE = { busy: false, error: null };
const formatOf = (v: VersionInfo) => v.format.toUpperCase();

/** A version's definition: the current one is on the page already, another one is fetched. */
function useVersionText(pipeline: PipelineDetail, version: number) {
  const current = version === pipeline.version;
  const query = usePipelineVersionQuery({ id: pipeline.id, version }, { skip: current });
  return { text: current ? pipeline.definition : query.data?.definition, query };
}

/** Who saved a version: the member's name when members may be seen, else the account id. */
function useSaverName() {
  const { t } = useTranslation();
  const canSeeMembers = usePermission('members:view').allowed;
  const { data } = useMembersQuery({ start: 0, end: 500 }, { skip: !canSeeMembers });
  return (userId: string | null) => {
    if (!userId) return t('pipelines.versions.nobody');
    const m = data?.members.find((x) => x.userId === userId);
    return m ? `${m.firstName} ${m.lastName}`.trim() || m.email : userId;
  };
}

/**
 * A pipeline's versions, newest first: view one (read-only), compare two as a line diff, and
 * restore an earlier one (saved as a new version, after asking; not for an external pipeline,
 * whose definition comes from git, nor for whoever may not edit pipelines).
 */
export function PipelineVersions({
  pipeline,
  onRestored,
}: {
  pipeline: PipelineDetail;
  /** after a restore saved: the page's editor should show the restored definition */
  onRestored?: (saved: PipelineDetail) => void;
}) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const list = pipeline.versions;
  const versions = useMemo(() => [...list].sort((a, b) => b.version - a.version), [list]);
  const current = pipeline.version;
  const external = Boolean(pipeline.source);
  const edit = usePermission('pipelines:edit');
  const canRestore = edit.allowed && !edit.isLoading && !external;
  const saverName = useSaverName();
  const [viewing, setViewing] = useState<number | null>(null);
  const [compare, setCompare] = useState<{ from: number; to: number } | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);
  const [restoreState, setRestoreState] = useState<{ busy: boolean; error: string | null }>(IDLE);
  const [notice, setNotice] = useState<string | null>(null);
  const [fetchVersion] = useLazyPipelineVersionQuery();
  const [update] = useUpdatePipelineMutation();
  // where focus goes back to when the comparison closes
  const opener = useRef<HTMLElement | null>(null);

  /** The comparison of a version: with the current one, or the current one with the one before. */
  function openCompare(version: number, from?: HTMLElement) {
    opener.current = from ?? null;
    const older = versions.find((v) => v.version < current)?.version ?? versions.at(-1)!.version;
    setCompare(version === current ? { from: older, to: current } : { from: version, to: current });
  }

  async function restore(version: number) {
    setRestoreState({ busy: true, error: null });
    const found = await fetchVersion({ id: pipeline.id, version }, true);
    if (!found.data) return setRestoreState({ busy: false, error: errorMessage(found.error) });
    const saved = await update({ id: pipeline.id, body: { definition: found.data.definition } });
    if (!saved.data) return setRestoreState({ busy: false, error: errorMessage(saved.error) });
    setRestoreState(IDLE);
    setRestoring(null);
    setViewing(null);
    setCompare(null);
    setNotice(t('pipelines.versions.restored', { from: version, version: saved.data.version }));
    // the page shows the saved pipeline at once, before its refetch answers
    dispatch(
      pipelinesApi.util.updateQueryData('pipeline', pipeline.id, (draft) => {
        Object.assign(draft, saved.data);
      }),
    );
    onRestored?.(saved.data);
  }

  const actions = (v: VersionInfo) => (
    <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
      <Button size="small" onClick={() => setViewing(v.version)}>
        {t('pipelines.versions.view')}
      </Button>
      {versions.length > 1 ? (
        <Button size="small" onClick={(e) => openCompare(v.version, e.currentTarget)}>
          {t('pipelines.versions.compare')}
        </Button>
      ) : null}
      {canRestore && v.version !== current ? (
        <Button size="small" onClick={() => setRestoring(v.version)}>
          {t('pipelines.versions.restore')}
        </Button>
      ) : null}
    </Stack>
  );
  const columns: Column<VersionInfo>[] = [
    {
      id: 'version',
      header: t('pipelines.versions.columns.version'),
      cell: (v) => (
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
          {t('pipelines.versions.label', { version: v.version })}
          {v.version === current ? (
            <Chip size="small" color="primary" label={t('pipelines.versions.current')} />
          ) : null}
        </Box>
      ),
      sx: { whiteSpace: 'nowrap' },
    },
    { id: 'format', header: t('pipelines.versions.columns.format'), cell: formatOf, hideBelow: 'sm' },
    { id: 'savedBy', header: t('pipelines.versions.columns.savedBy'), cell: (v) => saverName(v.createdBy) },
    timeColumn('savedAt', t('pipelines.versions.columns.savedAt'), (v) => v.createdAt, i18n.language),
    actionsColumn(t('common.actions'), actions),
  ];

  return (
    <Section id="pipeline-versions-title" title={t('pipelines.versions.title')}>
      <Box data-testid="pipeline-versions-section">
        <FormAlert message={notice} severity="success" />
        {external ? (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="versions-external">
            {t('pipelines.versions.externalNote')}
          </Alert>
        ) : null}
        {versions.length <= 1 ? (
          <Typography color="text.secondary" sx={{ mb: 1 }} data-testid="versions-only-one">
            {t('pipelines.versions.onlyOne')}
          </Typography>
        ) : null}
        <DataTable
          aria-labelledby="pipeline-versions-title"
          columns={columns}
          rows={versions}
          getRowId={(v) => v.version}
          rowTestId="version-row"
          isRowSelected={(v) => compare !== null && (v.version === compare.from || v.version === compare.to)}
        />
        {compare ? (
          <ComparePanel
            pipeline={pipeline}
            versions={versions}
            from={compare.from}
            to={compare.to}
            onChange={setCompare}
            onClose={() => {
              setCompare(null);
              opener.current?.focus();
            }}
          />
        ) : null}
      </Box>
      {viewing !== null ? (
        <VersionDialog
          pipeline={pipeline}
          version={viewing}
          canRestore={canRestore}
          onRestore={() => setRestoring(viewing)}
          onCompare={() => {
            setViewing(null);
            openCompare(viewing);
          }}
          onClose={() => setViewing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={restoring !== null}
        title={t('pipelines.versions.restoreTitle', { version: restoring ?? '' })}
        body={t('pipelines.versions.restoreBody')}
        confirmLabel={t('pipelines.versions.restoreConfirm')}
        loading={restoreState.busy}
        error={restoreState.error}
        onClose={() => {
          setRestoring(null);
          setRestoreState(IDLE);
        }}
        onConfirm={() => {
          if (restoring !== null) void restore(restoring);
        }}
      />
    </Section>
  );
}

/** One version's definition, read-only, with what can be done with it. */
function VersionDialog({
  pipeline,
  version,
  canRestore,
  onRestore,
  onCompare,
  onClose,
}: {
  pipeline: PipelineDetail;
  version: number;
  canRestore: boolean;
  onRestore: () => void;
  onCompare: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { text, query } = useVersionText(pipeline, version);
  const isCurrent = version === pipeline.version;
  // on a phone the definition takes the whole screen
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  return (
    <Dialog open onClose={onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="md" fullScreen={phone}>
      <DialogTitle id={`${id}-title`} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        {t('pipelines.versions.viewTitle', { version })}
        {isCurrent ? <Chip size="small" color="primary" label={t('pipelines.versions.current')} /> : null}
      </DialogTitle>
      <DialogContent>
        {text === undefined ? (
          <QueryPending query={query} what={t('pipelines.versions.loadError')} lines={12} />
        ) : (
          <Box dir="ltr">
            <Suspense fallback={<Skeleton lines={12} />}>
              <YamlEditor
                value={text}
                readOnly
                diagnostics={NO_DIAGNOSTICS}
                label={t('pipelines.versions.definitionOf', { version })}
                testId="version-definition"
              />
            </Suspense>
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {canRestore && !isCurrent ? (
          <Button onClick={onRestore}>{t('pipelines.versions.restoreThis')}</Button>
        ) : null}
        {!isCurrent ? (
          <Button onClick={onCompare}>{t('pipelines.versions.compareWithCurrent')}</Button>
        ) : null}
        <Button variant="contained" onClick={onClose}>
          {t('pipelines.versions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Two versions chosen, swapped and compared: a unified line diff of their definitions. */
function ComparePanel({
  pipeline,
  versions,
  from,
  to,
  onChange,
  onClose,
}: {
  pipeline: PipelineDetail;
  versions: VersionInfo[];
  from: number;
  to: number;
  onChange: (next: { from: number; to: number }) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const before = useVersionText(pipeline, from);
  const after = useVersionText(pipeline, to);
  const diff = useMemo(
    () => (before.text !== undefined && after.text !== undefined ? lineDiff(before.text, after.text) : null),
    [before.text, after.text],
  );
  // keyboard and screen reader users land on the comparison they asked for
  useEffect(() => heading.current?.focus(), []);

  const picker = (which: 'from' | 'to', value: number) => (
    <TextField
      select
      size="small"
      label={t(`pipelines.versions.${which}`)}
      value={value}
      onChange={(e) => onChange({ from, to, [which]: Number(e.target.value) })}
      sx={{ minWidth: 140 }}
    >
      {versions.map((v) => (
        <MenuItem key={v.version} value={v.version}>
          {v.version === pipeline.version
            ? t('pipelines.versions.labelCurrent', { version: v.version })
            : t('pipelines.versions.label', { version: v.version })}
        </MenuItem>
      ))}
    </TextField>
  );
  const pending = before.text === undefined ? before.query : after.query;
  return (
    <Box
      component="section"
      aria-labelledby="version-compare-title"
      sx={{ mt: 3 }}
      data-testid="version-compare"
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography
          id="version-compare-title"
          ref={heading}
          tabIndex={-1}
          variant="subtitle1"
          component="h3"
          sx={{ flex: 1, outline: 'none' }}
        >
          {t('pipelines.versions.compareTitle')}
        </Typography>
        <IconButton onClick={onClose} aria-label={t('pipelines.versions.closeCompare')} size="small">
          <Close fontSize="small" />
        </IconButton>
      </Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
        {picker('from', from)}
        <IconButton
          onClick={() => onChange({ from: to, to: from })}
          aria-label={t('pipelines.versions.swap')}
          data-testid="swap-versions"
        >
          <SwapHoriz />
        </IconButton>
        {picker('to', to)}
        {diff ? (
          <Typography role="status" sx={{ fontFamily: 'monospace' }}>
            <span aria-hidden data-testid="diff-summary">
              <Box component="span" sx={{ color: 'success.main' }}>{`+${diff.added}`}</Box>{' '}
              <Box component="span" sx={{ color: 'error.main' }}>{`\u2212${diff.removed}`}</Box>
            </span>
            <Box component="span" sx={VISUALLY_HIDDEN}>
              {t('pipelines.versions.summaryLabel', { added: diff.added, removed: diff.removed })}
            </Box>
          </Typography>
        ) : null}
      </Stack>
      {!diff ? (
        <QueryPending query={pending} what={t('pipelines.versions.loadError')} lines={8} />
      ) : diff.added + diff.removed === 0 ? (
        <Typography color="text.secondary" data-testid="diff-identical">
          {t('pipelines.versions.identical')}
        </Typography>
      ) : (
        <DiffView key={`${from}:${to}`} diff={diff} label={t('pipelines.versions.diffLabel', { from, to })} />
      )}
    </Box>
  );
}

const MARKERS = { same: ' ', added: '+', removed: '-' } as const;
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
};

/** A line's colours: green for added, red for removed, readable in the light and the dark theme. */
function lineSx(kind: DiffLine['kind']) {
  return (theme: Theme) => {
    if (kind === 'same') return { display: 'flex', whiteSpace: 'pre' };
    const palette = kind === 'added' ? theme.palette.success : theme.palette.error;
    return {
      display: 'flex',
      whiteSpace: 'pre',
      bgcolor: alpha(palette.main, 0.14),
      color: theme.palette.mode === 'dark' ? palette.light : palette.dark,
    };
  };
}

/**
 * The unified diff, left to right whatever the page's direction, scrolling inside its own box
 * (both ways) so a long line never widens the page; each gap opens to show its lines.
 */
function DiffView({ diff, label }: { diff: LineDiff; label: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const digits = useMemo(() => {
    let most = 1;
    for (const row of diff.rows)
      for (const line of row.type === 'gap' ? row.lines : [row.line])
        most = Math.max(most, line.oldLine ?? 0, line.newLine ?? 0);
    return String(most).length;
  }, [diff]);
  // line numbers are drawn by CSS: they are not copied with the text, nor part of its content
  const numberSx = {
    flex: 'none',
    width: `${digits + 1}ch`,
    pr: 1,
    textAlign: 'right',
    color: 'text.secondary',
    userSelect: 'none',
    '&::before': { content: 'attr(data-n)' },
  } as const;
  const line = (l: DiffLine, key: string) => (
    <Box key={key} data-testid={`diff-${l.kind}`} sx={lineSx(l.kind)}>
      <Box component="span" aria-hidden data-n={l.oldLine ?? ''} sx={numberSx} />
      <Box component="span" aria-hidden data-n={l.newLine ?? ''} sx={numberSx} />
      <Box component="code" sx={{ font: 'inherit', pr: 2 }}>
        {`${MARKERS[l.kind]} ${l.text}`}
      </Box>
    </Box>
  );
  return (
    <Box
      role="region"
      aria-label={label}
      tabIndex={0}
      dir="ltr"
      data-testid="version-diff"
      sx={{
        overflow: 'auto',
        maxHeight: 560,
        width: '100%',
        minWidth: 0,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        fontFamily: 'monospace',
        fontSize: 13,
        lineHeight: 1.6,
        '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
      }}
    >
      <Box sx={{ display: 'inline-block', minWidth: '100%', py: 0.5 }}>
        {diff.rows.map((row, i) =>
          row.type === 'line' ? (
            line(row.line, String(i))
          ) : opened.has(i) ? (
            row.lines.map((l, k) => line(l, `${i}.${k}`))
          ) : (
            <Box key={i} sx={{ bgcolor: 'action.hover' }}>
              <Button
                size="small"
                data-testid="diff-gap"
                onClick={() => setOpened((s) => new Set(s).add(i))}
                sx={{ fontFamily: 'monospace', textTransform: 'none', minWidth: 0, px: 1 }}
              >
                {t('pipelines.versions.unchanged', { count: row.lines.length })}
              </Button>
            </Box>
          ),
        )}
      </Box>
    </Box>
  );
}
