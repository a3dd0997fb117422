import ContentCopy from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegistryImage, RegistryTag } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { timeColumn } from '../../ui/columns';
import { DataTable, type Column } from '../../ui/DataTable';
import { FormAlert } from '../../ui/FormAlert';
import { listStates } from '../../ui/list-states';
import { useCopy } from '../../ui/ShownOnceDialog';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useListParams } from '../../ui/useListParams';
import { AllowedButton } from '../access/AllowedButton';
import { Can } from '../access/Can';
import { useDeleteRegistryTagMutation, useRegistryTagsQuery } from './api';
import { CODE_SX, formatSize, shortDigest } from './format';

type TagRow = RegistryTag & { id: string };

const INDEX_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
];

/**
 * One image's tags, newest first, a page at a time: each tag's digest (short, the whole of it in
 * its title and to copy), size and push time, and Delete tag after a confirmation for a caller
 * with registries:delete. Full screen on a phone.
 */
export function ImageTagsDialog({ image, onClose }: { image: RegistryImage; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const listParams = useListParams();
  const tags = useRegistryTagsQuery({ name: image.name, params: listParams.paging.range });
  const { notice, copy } = useCopy('registries.tags');
  const [remove, state] = useDeleteRegistryTagMutation();
  const deletion = useConfirmDelete<TagRow>([(tag) => remove({ name: image.name, tag }), state], (row) => ({
    title: t('registries.tags.deleteTitle', { tag: row.tag }),
    body: t('registries.tags.deleteBody', { reference: `${image.reference}:${row.tag}` }),
    confirmLabel: t('registries.tags.delete'),
  }));
  const rows = tags.data?.rows.map((r) => ({ ...r, id: r.tag }));
  const { page, setPage } = listParams.paging;
  // The last tag of a later page went: show the page before it.
  useEffect(() => {
    if (rows?.length === 0 && page > 0 && !tags.isFetching) setPage(page - 1);
  }, [rows?.length, page, setPage, tags.isFetching]);

  const columns: Column<TagRow>[] = [
    {
      id: 'tag',
      header: t('registries.tags.columns.tag'),
      cell: (r) => <bdi dir="ltr">{r.tag}</bdi>,
      sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' },
    },
    {
      id: 'digest',
      header: t('registries.tags.columns.digest'),
      cell: (r) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Box component="span" dir="ltr" title={r.digest} sx={{ fontFamily: 'monospace' }}>
            {shortDigest(r.digest)}
          </Box>
          <IconButton
            size="small"
            aria-label={t('registries.tags.copyDigest', { tag: r.tag })}
            onClick={() => void copy(r.digest, null)}
          >
            <ContentCopy fontSize="inherit" />
          </IconButton>
        </Box>
      ),
    },
    {
      id: 'size',
      header: t('registries.tags.columns.size'),
      align: 'end',
      cell: (r) =>
        r.size === null && INDEX_TYPES.includes(r.mediaType)
          ? t('registries.tags.index')
          : formatSize(r.size, i18n.language),
      sx: { whiteSpace: 'nowrap' },
      hideBelow: 'sm',
    },
    timeColumn<TagRow>('pushed', t('registries.tags.columns.pushed'), (r) => r.pushedAt, i18n.language, {
      hideBelow: 'md',
    }),
    {
      id: 'actions',
      header: t('common.actions'),
      align: 'end',
      cell: (r) => (
        <Can permission="registries:delete">
          {(allowed) => (
            <AllowedButton
              size="small"
              color="error"
              allowed={allowed}
              aria-label={t('registries.tags.deleteName', { tag: r.tag })}
              onClick={() => deletion.ask(r)}
            >
              {t('registries.tags.delete')}
            </AllowedButton>
          )}
        </Can>
      ),
    },
  ];

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
      data-testid="image-tags-dialog"
    >
      <DialogTitle id={`${id}-title`} sx={{ overflowWrap: 'anywhere' }}>
        {t('registries.tags.title', { name: image.name })}
      </DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <Box>
          <Typography variant="body2" color="text.secondary" component="span">
            {t('registries.tags.reference')}{' '}
          </Typography>
          <Box component="code" dir="ltr" sx={CODE_SX} data-testid="image-reference">
            {image.reference}
          </Box>
        </Box>
        <FormAlert message={notice} severity="info" />
        <DataTable
          aria-label={t('registries.tags.title', { name: image.name })}
          columns={columns}
          rows={rows}
          getRowId={(r) => r.tag}
          rowTestId="tag-row"
          {...listStates(tags, t('registries.tags.loadError'), {
            empty: (
              <Typography color="text.secondary" data-testid="tags-empty">
                {t('registries.tags.empty')}
              </Typography>
            ),
            paging: listParams.paging,
            pagerIfNeeded: true,
          })}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('registries.tags.close')}</Button>
      </DialogActions>
      {deletion.dialog}
    </Dialog>
  );
}
