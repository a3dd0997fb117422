import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { CommitField } from './CommitField';
import { setWhen, type EditResult, type WhenExpression } from './pipeline-edits';
import type { TaskInfo } from './pipeline-read';

/** Values in one field: comma-separated. */
const valuesOf = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter((v, i, all) => v !== '' || all.length === 1);

/** A task's `when` expressions: input, `in` or `notin`, and values; each change rewrites the list. */
export function WhenSection({
  task,
  editable,
  edit,
}: {
  task: TaskInfo;
  editable: boolean;
  edit: (change: (text: string) => EditResult) => EditResult;
}) {
  const { t } = useTranslation();
  const write = (next: WhenExpression[]) => edit((text) => setWhen(text, task.name, next));
  const change = (index: number, patch: Partial<WhenExpression>) =>
    write(task.when.map((w, i) => (i === index ? { ...w, ...patch } : w)));

  return (
    <Box component="section" aria-label={t('studioPage.when.title')}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {t('studioPage.when.title')}
      </Typography>
      {task.when.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('studioPage.when.none')}
        </Typography>
      ) : null}
      {task.celWhen ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('studioPage.when.cel', { count: task.celWhen })}
        </Typography>
      ) : null}
      <Stack spacing={1.5} sx={{ mb: 1.5 }}>
        {task.when.map((w, i) => {
          const n = i + 1;
          return (
            <Box
              key={i}
              data-testid="studio-when"
              role="group"
              aria-label={t('studioPage.when.condition', { n })}
              sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}
            >
              <CommitField
                label={t('studioPage.when.input', { n })}
                value={w.input}
                onCommit={(input) => change(i, { input })}
                disabled={!editable}
                slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
                sx={{ flex: '2 1 160px' }}
              />
              <TextField
                select
                size="small"
                label={t('studioPage.when.operator', { n })}
                value={w.operator}
                onChange={(e) => change(i, { operator: e.target.value as WhenExpression['operator'] })}
                disabled={!editable}
                sx={{ flex: '0 0 110px' }}
              >
                <MenuItem value="in">in</MenuItem>
                <MenuItem value="notin">notin</MenuItem>
              </TextField>
              <CommitField
                label={t('studioPage.when.values', { n })}
                helperText={t('studioPage.when.valuesHelp')}
                value={w.values.join(', ')}
                onCommit={(text) => change(i, { values: valuesOf(text) })}
                disabled={!editable}
                slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
                sx={{ flex: '2 1 160px' }}
              />
              {editable ? (
                <Tooltip title={t('studioPage.when.remove', { n })}>
                  <IconButton
                    aria-label={t('studioPage.when.remove', { n })}
                    onClick={() => write(task.when.filter((_w, j) => j !== i))}
                  >
                    <Close />
                  </IconButton>
                </Tooltip>
              ) : null}
            </Box>
          );
        })}
      </Stack>
      {editable ? (
        <Button
          variant="outlined"
          onClick={() => write([...task.when, { input: '', operator: 'in', values: [''] }])}
        >
          {t('studioPage.when.add')}
        </Button>
      ) : null}
    </Box>
  );
}
