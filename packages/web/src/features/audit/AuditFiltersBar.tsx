import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { Member } from '@slipway/contracts';
import { OUTCOME_OPTIONS, RANGE_OPTIONS, type AuditFilters } from './audit-query';
import { selectOptions } from '../../ui/select-options';

/** Date range (the six presets of spec §9), action, outcome and actor. */
export function AuditFiltersBar({
  filters,
  onChange,
  actors,
}: {
  filters: AuditFilters;
  onChange: (patch: Partial<AuditFilters>) => void;
  actors: Member[] | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} role="group" aria-label={t('audit.filters')}>
      <TextField
        select
        size="small"
        id="audit-range"
        label={t('audit.range')}
        value={filters.range}
        onChange={(e) => onChange({ range: e.target.value as AuditFilters['range'] })}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="">{t('audit.anyTime')}</MenuItem>
        {selectOptions(RANGE_OPTIONS, (r) => [r, t(`audit.ranges.${r}`)])}
      </TextField>
      <TextField
        size="small"
        id="audit-action"
        label={t('audit.action')}
        placeholder={t('audit.actionPlaceholder')}
        value={filters.action}
        onChange={(e) => onChange({ action: e.target.value })}
      />
      <TextField
        select
        size="small"
        id="audit-outcome"
        label={t('audit.outcome')}
        value={filters.outcome}
        onChange={(e) => onChange({ outcome: e.target.value as AuditFilters['outcome'] })}
        sx={{ minWidth: 140 }}
      >
        <MenuItem value="">{t('audit.anyOutcome')}</MenuItem>
        {selectOptions(OUTCOME_OPTIONS, (o) => [o, t(`audit.outcomes.${o}`)])}
      </TextField>
      {actors ? (
        <TextField
          select
          size="small"
          id="audit-actor"
          label={t('audit.actor')}
          value={filters.actor}
          onChange={(e) => onChange({ actor: e.target.value })}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{t('audit.anyone')}</MenuItem>
          {selectOptions(actors, (m) => [m.userId, `${m.firstName} ${m.lastName}`.trim() || m.email])}
        </TextField>
      ) : (
        <TextField
          size="small"
          id="audit-actor"
          label={t('audit.actorId')}
          value={filters.actor}
          onChange={(e) => onChange({ actor: e.target.value })}
        />
      )}
    </Stack>
  );
}
