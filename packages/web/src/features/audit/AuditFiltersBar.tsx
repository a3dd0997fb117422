import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Member } from '@slipway/contracts';
import { OUTCOME_OPTIONS, RANGE_OPTIONS, type AuditFilters } from './audit-query';
import { selectOptions } from '../../ui/select-options';

/** One filter: a text field, or a select (with "any" first) when it has `options`. */
function FilterField({
  name,
  label,
  filters,
  onChange,
  any,
  options,
  minWidth,
  placeholder,
}: {
  name: keyof AuditFilters;
  label: string;
  filters: AuditFilters;
  onChange: (patch: Partial<AuditFilters>) => void;
  any?: string;
  options?: ReactNode[];
  minWidth?: number;
  placeholder?: string;
}) {
  return (
    <TextField
      select={Boolean(options)}
      size="small"
      id={`audit-${name}`}
      label={label}
      placeholder={placeholder}
      value={filters[name]}
      onChange={(e) => onChange({ [name]: e.target.value })}
      sx={minWidth ? { minWidth } : undefined}
    >
      {options
        ? [
            <MenuItem key="" value="">
              {any}
            </MenuItem>,
            ...options,
          ]
        : null}
    </TextField>
  );
}

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
  const field = { filters, onChange };
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} role="group" aria-label={t('audit.filters')}>
      <FilterField
        {...field}
        name="range"
        label={t('audit.range')}
        any={t('audit.anyTime')}
        options={selectOptions(RANGE_OPTIONS, (r) => [r, t(`audit.ranges.${r}`)])}
        minWidth={180}
      />
      <FilterField
        {...field}
        name="action"
        label={t('audit.action')}
        placeholder={t('audit.actionPlaceholder')}
      />
      <FilterField
        {...field}
        name="outcome"
        label={t('audit.outcome')}
        any={t('audit.anyOutcome')}
        options={selectOptions(OUTCOME_OPTIONS, (o) => [o, t(`audit.outcomes.${o}`)])}
        minWidth={140}
      />
      {actors ? (
        <FilterField
          {...field}
          name="actor"
          label={t('audit.actor')}
          any={t('audit.anyone')}
          options={selectOptions(actors, (m) => [m.userId, `${m.firstName} ${m.lastName}`.trim() || m.email])}
          minWidth={200}
        />
      ) : (
        <FilterField {...field} name="actor" label={t('audit.actorId')} />
      )}
    </Stack>
  );
}
