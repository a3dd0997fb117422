import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { PERMISSION_ACTIONS, type PermissionAction, type PermissionResource } from '@slipway/contracts';
import { isOrganisationResource, type MatrixRow } from './role-grants';

/**
 * Resources × actions as checkboxes, with a per-row list of environments the row's grants are
 * limited to (for example "staging": may run pipelines in staging but not in production).
 */
export function PermissionMatrix({
  rows,
  onToggle,
  onEnvironments,
  readOnly = false,
}: {
  rows: MatrixRow[];
  onToggle: (resource: PermissionResource, action: PermissionAction) => void;
  onEnvironments: (resource: PermissionResource, text: string) => void;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TableContainer sx={{ maxHeight: 440 }}>
      <Table size="small" stickyHeader aria-label={t('roles.matrix.label')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('roles.matrix.resource')}</TableCell>
            {PERMISSION_ACTIONS.map((a) => (
              <TableCell key={a} align="center">
                {t(`roles.actions.${a}`)}
              </TableCell>
            ))}
            <TableCell>{t('roles.matrix.environments')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const label = t(`roles.resources.${row.resource}`, { defaultValue: row.resource });
            return (
              <TableRow key={row.resource} data-testid={`matrix-${row.resource}`}>
                <TableCell component="th" scope="row">
                  {label}
                </TableCell>
                {PERMISSION_ACTIONS.map((a) => (
                  <TableCell key={a} align="center" padding="checkbox">
                    <Checkbox
                      checked={row.actions.includes(a)}
                      disabled={readOnly}
                      onChange={() => onToggle(row.resource, a)}
                      slotProps={{
                        input: {
                          'aria-label': t('roles.matrix.cell', {
                            action: t(`roles.actions.${a}`),
                            resource: label,
                          }),
                        },
                      }}
                    />
                  </TableCell>
                ))}
                <TableCell sx={{ minWidth: 180 }}>
                  {isOrganisationResource(row.resource) ? (
                    t('roles.matrix.organisationWide')
                  ) : (
                    <TextField
                      size="small"
                      variant="standard"
                      placeholder={t('roles.matrix.allEnvironments')}
                      value={row.environments}
                      disabled={readOnly}
                      onChange={(e) => onEnvironments(row.resource, e.target.value)}
                      slotProps={{
                        htmlInput: { 'aria-label': t('roles.matrix.environmentsFor', { resource: label }) },
                      }}
                      fullWidth
                    />
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
