import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import type { ConfigMap } from '@slipway/contracts';
import { PermissionButton } from '../access/Can';
import { formatTime } from '../pipelines/format';

/** On a phone the description and the time of the last change give their room to the rest. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;
const WIDE_COLUMNS = new Set(['description', 'updated']);

/** Config maps as rows: name, description, keys and when it last changed, with edit and delete. */
export function ConfigMapsTable({
  configMaps,
  onEdit,
  onDelete,
}: {
  configMaps: ConfigMap[];
  onEdit: (configMap: ConfigMap) => void;
  onDelete: (configMap: ConfigMap) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <TableContainer>
      <Table size="small" aria-label={t('configMapsPage.title')}>
        <TableHead>
          <TableRow>
            {(['name', 'description', 'keys', 'updated'] as const).map((c) => (
              <TableCell key={c} sx={WIDE_COLUMNS.has(c) ? WIDE_ONLY : undefined}>
                {t(`configMapsPage.columns.${c}`)}
              </TableCell>
            ))}
            <TableCell align="right">{t('configMapsPage.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {configMaps.map((c) => (
            <TableRow key={c.id} data-testid="config-map-row">
              <TableCell sx={{ wordBreak: 'break-word' }}>{c.name}</TableCell>
              <TableCell sx={WIDE_ONLY}>{c.description}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>
                {Object.keys(c.data).sort().join(', ')}
              </TableCell>
              <TableCell sx={{ ...WIDE_ONLY, whiteSpace: 'nowrap' }}>
                {formatTime(c.updatedAt, i18n.language)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <PermissionButton size="small" permission="secrets:edit" onClick={() => onEdit(c)}>
                  {t('configMapsPage.edit')}
                </PermissionButton>
                <PermissionButton
                  size="small"
                  color="error"
                  permission="secrets:delete"
                  onClick={() => onDelete(c)}
                >
                  {t('configMapsPage.delete')}
                </PermissionButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
