import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import { useTheme } from '@mui/material/styles';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import type { DefinitionDiagnostic } from '../../ui/yaml-diagnostics';
import { YamlEditor } from '../../ui/YamlEditor';
import { useTaskTemplatesQuery } from '../catalogue/api';
import { CatalogueDialog, type CataloguePick } from './CatalogueDialog';
import type { KnownResults } from './ParamsSection';
import { addRunAfter, addTask, type EditResult } from './pipeline-edits';
import { catalogueItemOf, INLINE_TASK, isTaskTemplate, newTaskFrom, resultsOf } from './pipeline-read';
import StudioCanvas from './StudioCanvas';
import { TaskPanel } from './TaskPanel';
import type { useStudioText } from './useStudioText';

/**
 * The studio's pipeline workspace: the DAG beside its YAML (tabbed on narrow screens), the
 * selected task's panel under the canvas, and "Add task". Canvas and panel edit the YAML's text;
 * the YAML's text redraws the canvas.
 */
export function PipelineWorkspace({
  doc,
  editable,
  diagnostics,
}: {
  doc: ReturnType<typeof useStudioText>;
  editable: boolean;
  diagnostics: DefinitionDiagnostic[];
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  const id = useId();
  const [view, setView] = useState<'canvas' | 'yaml'>('canvas');
  const [selected, setSelected] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const templates = useTaskTemplatesQuery();
  const catalogue = useMemo(
    () => (templates.data ?? []).filter(isTaskTemplate).map(catalogueItemOf),
    [templates.data],
  );
  const { model, problem } = doc;
  const task = model?.tasks.find((x) => x.name === selected) ?? null;
  const canEdit = editable && problem === null;

  const edit = useCallback(
    (change: (text: string) => EditResult): EditResult => {
      const result = doc.edit(change);
      if (result.ok) setRefusal(null);
      else
        setRefusal(
          t(`studioPage.errors.${result.error}`, {
            tasks: (result.tasks ?? []).join(', '),
            message: result.message ?? '',
          }),
        );
      return result;
    },
    [doc, t],
  );

  const known: KnownResults = useMemo(() => {
    if (!model || !task) return [];
    return model.tasks
      .filter((x) => x.name !== task.name && !x.isFinally)
      .map((x) => ({ task: x.name, results: resultsOf(x, model, catalogue) }))
      .filter((x) => x.results.length > 0);
  }, [model, task, catalogue]);

  const pick = (choice: CataloguePick) => {
    setAdding(false);
    const wanted = choice.kind === 'inline' ? INLINE_TASK : newTaskFrom(choice.item, model?.workspaces ?? []);
    const result = edit((text) => addTask(text, wanted));
    if (result.ok && result.name) setSelected(result.name);
  };

  const canvas = model ? (
    model.tasks.length === 0 ? (
      <Typography color="text.secondary" data-testid="studio-no-tasks" sx={{ py: 4, textAlign: 'center' }}>
        {editable ? t('studioPage.workspace.noTasks') : t('studioPage.workspace.noTasksReadOnly')}
      </Typography>
    ) : (
      <StudioCanvas
        graph={model.graph}
        tasks={model.tasks}
        selected={selected}
        editable={canEdit}
        onSelect={setSelected}
        onConnect={(from, to) => edit((text) => addRunAfter(text, from, to))}
      />
    )
  ) : null;

  const panel =
    task && model ? (
      <TaskPanel
        key={task.name}
        task={task}
        model={model}
        known={known}
        editable={canEdit}
        edit={edit}
        onRenamed={setSelected}
        onDeleted={() => setSelected(null)}
        onClose={() => setSelected(null)}
      />
    ) : null;

  const yaml = (
    <Box dir="ltr" sx={{ minWidth: 0 }}>
      <YamlEditor
        value={doc.text}
        onChange={editable ? doc.typed : undefined}
        diagnostics={diagnostics}
        readOnly={!editable}
        label={t('studioPage.workspace.yaml')}
        testId="studio-yaml-editor"
      />
    </Box>
  );

  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
        {editable ? (
          <Button variant="contained" startIcon={<Add />} onClick={() => setAdding(true)} disabled={!canEdit}>
            {t('studioPage.workspace.addTask')}
          </Button>
        ) : null}
        <TextField
          select
          size="small"
          label={t('studioPage.workspace.task')}
          value={task ? task.name : ''}
          onChange={(e) => setSelected(e.target.value || null)}
          disabled={!model || model.tasks.length === 0}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">
            <em>{t('studioPage.workspace.noTask')}</em>
          </MenuItem>
          {(model?.tasks ?? []).map((x) => (
            <MenuItem key={x.name} value={x.name} dir="ltr">
              {x.name}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {problem !== null ? (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="studio-parse-problem" role="status">
          {problem ? t('studioPage.workspace.unreadable', { problem }) : t('studioPage.workspace.noPipeline')}
        </Alert>
      ) : null}
      {refusal ? (
        <Alert
          severity="error"
          role="alert"
          sx={{ mb: 2 }}
          onClose={() => setRefusal(null)}
          data-testid="studio-refusal"
        >
          {refusal}
        </Alert>
      ) : null}
      {wide ? (
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
            gap: 2,
            alignItems: 'start',
          }}
        >
          <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
            {canvas}
            {panel}
          </Box>
          {yaml}
        </Box>
      ) : (
        <>
          <Tabs value={view} onChange={(_e, v: typeof view) => setView(v)} sx={{ mb: 2 }}>
            <Tab
              value="canvas"
              label={t('studioPage.workspace.canvasTab')}
              id={`${id}-canvas`}
              aria-controls={`${id}-canvas-panel`}
            />
            <Tab
              value="yaml"
              label={t('studioPage.workspace.yamlTab')}
              id={`${id}-yaml`}
              aria-controls={`${id}-yaml-panel`}
            />
          </Tabs>
          <Box
            role="tabpanel"
            id={`${id}-canvas-panel`}
            aria-labelledby={`${id}-canvas`}
            hidden={view !== 'canvas'}
            sx={{ minWidth: 0 }}
          >
            {view === 'canvas' ? (
              <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
                {canvas}
                {panel}
              </Box>
            ) : null}
          </Box>
          {/* the editor stays mounted (its undo history with it) while the canvas is shown */}
          <Box
            role="tabpanel"
            id={`${id}-yaml-panel`}
            aria-labelledby={`${id}-yaml`}
            hidden={view !== 'yaml'}
          >
            {yaml}
          </Box>
        </>
      )}
      {adding ? <CatalogueDialog onPick={pick} onClose={() => setAdding(false)} /> : null}
    </Box>
  );
}
