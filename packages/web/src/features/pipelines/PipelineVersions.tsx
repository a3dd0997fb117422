import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lazy, Suspense, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineDetail } from '@slipway/contracts';
import { useAppDispatch } from '../../app/hooks';
import { errorMessage } from '../../ui/api-error';
import { actionsColumn } from '../../ui/ActionsTable';
import { timeColumn } from '../../ui/columns';
import { formatTime } from '../../ui/format';
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
import { pipelinesApi, useLazyPipelineVersionQuery, useUpdatePipelineMutation } from './api';
import { ComparePanel, formatOf, useVersionText, type VersionInfo } from './VersionCompare';

/** CodeMirror loads only when a version is viewed (as the page's own editor does). */
const YamlEditor = lazy(() => import('../../ui/YamlEditor').then((m) => ({ default: m.YamlEditor })));
const NO_DIAGNOSTICS: DefinitionDiagnostic[] = [];

const IDLE = { busy: false, error: null };

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
    <Stack direction="row" useFlexGap sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', gap: 0.5 }}>
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
        <>
          <Box
            component="span"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
          >
            {t('pipelines.versions.label', { version: v.version })}
            {v.version === current ? (
              <Chip size="small" color="primary" label={t('pipelines.versions.current')} />
            ) : null}
          </Box>
          {/* on a phone the saved-at column is left out: the time goes under the version */}
          <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
            {formatTime(v.createdAt, i18n.language)}
          </Typography>
        </>
      ),
    },
    { id: 'format', header: t('pipelines.versions.columns.format'), cell: formatOf, hideBelow: 'sm' },
    {
      id: 'savedBy',
      header: t('pipelines.versions.columns.savedBy'),
      cell: (v) => saverName(v.createdBy),
      hideBelow: 'sm',
    },
    timeColumn('savedAt', t('pipelines.versions.columns.savedAt'), (v) => v.createdAt, i18n.language, {
      hideBelow: 'sm',
    }),
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
