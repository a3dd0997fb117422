import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { STATUS_COLOR } from './format';

/** A run, task or step status as a coloured chip. */
export function StatusChip({ status, testId = 'status-chip' }: { status: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      data-testid={testId}
      data-status={status}
      color={STATUS_COLOR[status] ?? 'default'}
      label={t(`pipelines.status.${status}`, { defaultValue: status })}
    />
  );
}
