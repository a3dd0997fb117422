import Close from '@mui/icons-material/Close';
import Delete from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CommitField } from './CommitField';
import { ParamsSection, type KnownResults } from './ParamsSection';
import { addRunAfter, removeRunAfter, removeTask, renameTask, type EditResult } from './pipeline-edits';
import type { PipelineModel, TaskInfo } from './pipeline-read';
import { WhenSection } from './WhenSection';

/** The tasks whose params or `when` read `name`'s results. */
function readersOf(name: string, tasks: readonly TaskInfo[]): string[] {
  const ref = `$(tasks.${name}.results.`;
  return tasks
    .filter((t) => t.name !== name)
    .filter((t) =>
      [...t.params.flatMap((p) => p.value), ...t.when.flatMap((w) => [w.input, ...w.values])].some((s) =>
        s.includes(ref),
      ),
    )
    .map((t) => t.name);
}

/**
 * The side panel of the selected task: its name, what it runs after (a multi-select, so tasks can
 * be connected from the keyboard), its params, its `when` expressions, and Delete. Every change
 * is an edit of the definition's text.
 */
export function TaskPanel({
  task,
  model,
  known,
  editable,
  edit,
  onRenamed,
  onDeleted,
  onClose,
}: {
  task: TaskInfo;
  model: PipelineModel;
  known: KnownResults;
  editable: boolean;
  edit: (change: (text: string) => EditResult) => EditResult;
  onRenamed: (name: string) => void;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  const others = model.tasks.filter((o) => o.name !== task.name && !o.isFinally);
  const readers = readersOf(task.name, model.tasks);
  const resultSources = [
    ...new Set(
      model.graph.edges.filter((e) => e.target === task.name && e.kind === 'result').map((e) => e.source),
    ),
  ];

  const setRunAfter = (next: string[]) => {
    for (const name of next.filter((n) => !task.runAfter.includes(n)))
      if (!edit((text) => addRunAfter(text, name, task.name)).ok) return;
    for (const name of task.runAfter.filter((n) => !next.includes(n)))
      edit((text) => removeRunAfter(text, name, task.name));
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={t('studioPage.panel.label', { name: task.name })}
      data-testid="studio-task-panel"
      sx={{ p: 2, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography variant="h6" component="h2" sx={{ minWidth: 0, overflowWrap: 'anywhere', flex: 1 }}>
          {t('studioPage.panel.title', { name: task.name })}
        </Typography>
        <IconButton aria-label={t('studioPage.panel.close')} onClick={onClose}>
          <Close />
        </IconButton>
      </Box>
      <Stack spacing={2.5} divider={<Divider flexItem />}>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {task.taskRef ? t('studioPage.panel.ref', { ref: task.taskRef }) : t('studioPage.panel.inline')}
            {task.isFinally ? ` ${t('studioPage.panel.finally')}` : ''}
          </Typography>
          <CommitField
            label={t('studioPage.panel.name')}
            value={task.name}
            disabled={!editable}
            helperText={t('studioPage.panel.nameHelp')}
            slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
            onCommit={(next) => {
              const to = next.trim();
              if (edit((text) => renameTask(text, task.name, to)).ok) onRenamed(to);
            }}
          />
          <TextField
            select
            size="small"
            label={t('studioPage.panel.runAfter')}
            value={task.runAfter}
            disabled={!editable || task.isFinally || others.length === 0}
            helperText={
              task.isFinally
                ? t('studioPage.panel.runAfterFinally')
                : others.length === 0
                  ? t('studioPage.panel.runAfterNone')
                  : t('studioPage.panel.runAfterHelp')
            }
            slotProps={{
              select: {
                multiple: true,
                renderValue: (v) => (v as string[]).join(', '),
              },
            }}
            onChange={(e) => setRunAfter(e.target.value as unknown as string[])}
          >
            {others.map((o) => (
              <MenuItem key={o.name} value={o.name}>
                <Checkbox size="small" checked={task.runAfter.includes(o.name)} tabIndex={-1} disableRipple />
                <ListItemText primary={o.name} />
              </MenuItem>
            ))}
          </TextField>
          {resultSources.length ? (
            <Typography variant="body2" color="text.secondary" data-testid="studio-result-sources">
              {t('studioPage.panel.readsResults', { tasks: resultSources.join(', ') })}
            </Typography>
          ) : null}
        </Stack>
        <ParamsSection task={task} known={known} editable={editable} edit={edit} />
        <WhenSection task={task} editable={editable} edit={edit} />
        {editable ? (
          <div>
            <Button variant="outlined" color="error" startIcon={<Delete />} onClick={() => setDeleting(true)}>
              {t('studioPage.panel.delete')}
            </Button>
          </div>
        ) : null}
      </Stack>
      <ConfirmDialog
        open={deleting}
        title={t('studioPage.panel.deleteTitle', { name: task.name })}
        body={
          readers.length
            ? t('studioPage.panel.deleteReferenced', { tasks: readers.join(', ') })
            : t('studioPage.panel.deleteBody')
        }
        confirmLabel={t('studioPage.panel.deleteConfirm')}
        onClose={() => setDeleting(false)}
        onConfirm={() => {
          setDeleting(false);
          if (edit((text) => removeTask(text, task.name, { force: true })).ok) onDeleted();
        }}
      />
    </Paper>
  );
}
