import Close from '@mui/icons-material/Close';
import Link from '@mui/icons-material/Link';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { CommitField } from './CommitField';
import { setTaskParam, type EditResult, type ParamValue } from './pipeline-edits';
import type { TaskInfo } from './pipeline-read';

/** The results other tasks are known to produce, by task. */
export type KnownResults = { task: string; results: string[] }[];

/** A param's value in a field: an array one item per line. */
const shown = (value: ParamValue) => (Array.isArray(value) ? value.join('\n') : value);

/** A task's params: each value to edit or set to an upstream task's result, and new ones to add. */
export function ParamsSection({
  task,
  known,
  editable,
  edit,
}: {
  task: TaskInfo;
  known: KnownResults;
  editable: boolean;
  edit: (change: (text: string) => EditResult) => EditResult;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [picking, setPicking] = useState<{ param: string; anchor: HTMLElement } | null>(null);
  const set = (param: string, next: ParamValue | null) =>
    edit((text) => setTaskParam(text, task.name, param, next));
  const add = () => {
    if (set(name.trim(), value).ok) {
      setName('');
      setValue('');
    }
  };

  return (
    <Box component="section" aria-label={t('studioPage.params.title')}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {t('studioPage.params.title')}
      </Typography>
      {task.params.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('studioPage.params.none')}
        </Typography>
      ) : null}
      <Stack spacing={1.5} sx={{ mb: 1.5 }}>
        {task.params.map((p) => (
          <Box
            key={p.name}
            data-testid="studio-param"
            sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}
          >
            <CommitField
              label={t('studioPage.params.value', { name: p.name })}
              value={shown(p.value)}
              multiline={Array.isArray(p.value)}
              onCommit={(next) => set(p.name, Array.isArray(p.value) ? next.split('\n') : next)}
              disabled={!editable}
              fullWidth
              slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
            />
            {editable ? (
              <>
                <Tooltip title={t('studioPage.params.useResult', { name: p.name })}>
                  <IconButton
                    aria-label={t('studioPage.params.useResult', { name: p.name })}
                    onClick={(e) => setPicking({ param: p.name, anchor: e.currentTarget })}
                  >
                    <Link />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('studioPage.params.remove', { name: p.name })}>
                  <IconButton
                    aria-label={t('studioPage.params.remove', { name: p.name })}
                    onClick={() => set(p.name, null)}
                  >
                    <Close />
                  </IconButton>
                </Tooltip>
              </>
            ) : null}
          </Box>
        ))}
      </Stack>
      <Menu
        open={picking !== null}
        anchorEl={picking?.anchor}
        onClose={() => setPicking(null)}
        slotProps={{ list: { 'aria-label': t('studioPage.params.results') } }}
      >
        {known.length === 0 ? (
          <MenuItem disabled>{t('studioPage.params.noResults')}</MenuItem>
        ) : (
          known.flatMap(({ task: from, results }) => [
            <ListSubheader key={`h-${from}`}>{from}</ListSubheader>,
            ...results.map((r) => (
              <MenuItem
                key={`${from}.${r}`}
                onClick={() => {
                  if (picking) set(picking.param, `$(tasks.${from}.results.${r})`);
                  setPicking(null);
                }}
              >
                {t('studioPage.params.result', { task: from, result: r })}
              </MenuItem>
            )),
          ])
        )}
      </Menu>
      {editable ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            size="small"
            label={t('studioPage.params.newName')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
            sx={{ flex: '1 1 140px' }}
          />
          <TextField
            size="small"
            label={t('studioPage.params.newValue')}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
            sx={{ flex: '1 1 140px' }}
          />
          <Button variant="outlined" onClick={add} disabled={!name.trim()}>
            {t('studioPage.params.add')}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
