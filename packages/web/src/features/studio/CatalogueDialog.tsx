import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { QueryPending } from '../../ui/QueryPending';
import { useTaskTemplatesQuery } from '../catalogue/api';
import { catalogueItemOf, isTaskTemplate, type CatalogueItem } from './pipeline-read';

/** What the catalogue hands back: a catalogue task, or a task of the pipeline's own. */
export type CataloguePick = { kind: 'catalogue'; item: CatalogueItem } | { kind: 'inline' };

/**
 * "Add task": the built-in tasks and the workspace's task templates, searchable by name and
 * description, and a task of the pipeline's own (an inline taskSpec). Picking one adds it.
 */
export function CatalogueDialog({
  onPick,
  onClose,
}: {
  onPick: (pick: CataloguePick) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const query = useTaskTemplatesQuery();
  const [search, setSearch] = useState('');
  const items = useMemo(() => (query.data ?? []).filter(isTaskTemplate).map(catalogueItemOf), [query.data]);
  const needle = search.trim().toLowerCase();
  const shown = items.filter(
    (i) => !needle || i.name.toLowerCase().includes(needle) || i.description.toLowerCase().includes(needle),
  );
  const group = (builtIn: boolean) => shown.filter((i) => i.builtIn === builtIn);
  const section = (title: string, list: CatalogueItem[]) =>
    list.length ? (
      <li key={title}>
        <List dense disablePadding aria-label={title}>
          <ListSubheader disableSticky>{title}</ListSubheader>
          {list.map((item) => (
            <ListItemButton
              key={item.id}
              data-testid="catalogue-item"
              onClick={() => onPick({ kind: 'catalogue', item })}
            >
              <ListItemText
                primary={item.name}
                secondary={item.description || null}
                slotProps={{ primary: { dir: 'ltr', sx: { textAlign: 'start' } } }}
              />
            </ListItemButton>
          ))}
        </List>
      </li>
    ) : null;

  return (
    <Dialog open onClose={onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>{t('studioPage.catalogue.title')}</DialogTitle>
      <DialogContent>
        <TextField
          label={t('studioPage.catalogue.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          type="search"
          size="small"
          fullWidth
          autoFocus
          sx={{ mt: 1, mb: 1 }}
        />
        <List disablePadding>
          <li>
            <List dense disablePadding aria-label={t('studioPage.catalogue.ownGroup')}>
              <ListSubheader disableSticky>{t('studioPage.catalogue.ownGroup')}</ListSubheader>
              <ListItemButton data-testid="catalogue-inline" onClick={() => onPick({ kind: 'inline' })}>
                <ListItemText
                  primary={t('studioPage.catalogue.inline')}
                  secondary={t('studioPage.catalogue.inlineHelp')}
                />
              </ListItemButton>
            </List>
          </li>
          {query.data ? (
            <>
              {section(t('studioPage.catalogue.builtIn'), group(true))}
              {section(t('studioPage.catalogue.templates'), group(false))}
            </>
          ) : null}
        </List>
        {query.data ? (
          shown.length === 0 ? (
            <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="catalogue-empty">
              {items.length === 0 ? t('studioPage.catalogue.empty') : t('studioPage.catalogue.noMatch')}
            </Typography>
          ) : null
        ) : (
          <QueryPending query={query} what={t('studioPage.catalogue.loadError')} lines={4} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
