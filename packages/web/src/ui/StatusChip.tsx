import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

export type ChipColor = 'default' | 'info' | 'success' | 'error' | 'warning';

/**
 * A small chip naming a state, coloured from a table of states (`colors`); `attribute` also puts
 * the state on the chip as `data-<attribute>` for tests and styles.
 */
export function StatusChip<S extends string>({
  status,
  colors,
  label,
  testId,
  attribute,
}: {
  status: S;
  colors: Record<S, ChipColor>;
  label: string;
  testId?: string;
  attribute?: string;
}) {
  return (
    <Chip
      size="small"
      data-testid={testId}
      {...(attribute ? { [`data-${attribute}`]: status } : {})}
      color={colors[status]}
      label={label}
    />
  );
}

const ON_OFF: Record<'on' | 'off', ChipColor> = { on: 'success', off: 'default' };

/** Whether something is switched on (a schedule, a webhook): green when it is, grey when not. */
export function EnabledChip({ enabled, on, off }: { enabled: boolean; on: string; off: string }) {
  return <StatusChip status={enabled ? 'on' : 'off'} colors={ON_OFF} label={enabled ? on : off} />;
}

/** A `StatusChip` labelled with the translation `<labels>.<status>` ("clusters.status.active"). */
export function TranslatedStatusChip<S extends string>({
  labels,
  ...chip
}: Omit<Parameters<typeof StatusChip<S>>[0], 'label'> & { labels: string }) {
  const { t } = useTranslation();
  return <StatusChip {...chip} label={t(`${labels}.${chip.status}`)} />;
}
