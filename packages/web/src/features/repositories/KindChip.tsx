import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { RepositoryKind } from '@slipway/contracts';

/** Whether a repository is hosted in Slipway or an external URL, as a small chip. */
export function KindChip({ kind }: { kind: RepositoryKind }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={kind === 'hosted' ? 'primary' : 'default'}
      data-kind={kind}
      label={t(`repositories.kinds.${kind}`)}
    />
  );
}
