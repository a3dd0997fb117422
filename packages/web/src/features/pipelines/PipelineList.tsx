import type { PipelineSummary } from '@slipway/contracts';
import type { ElementType } from 'react';
import { useTranslation } from 'react-i18next';
import { timeColumn } from '../../ui/columns';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { TableSection } from '../../ui/TableSection';
import { useListParams } from '../../ui/useListParams';
import { usePipelinesQuery } from './api';

const PAGE_SIZE = 10;

/**
 * The workspace's pipelines: name, current version and last change, sortable by each; a row
 * opens the pipeline. On a phone only the name stays.
 */
export function PipelineList({ icon }: { icon?: ElementType }) {
  const { t, i18n } = useTranslation();
  const listParams = useListParams({ sizes: [PAGE_SIZE], sort: { key: 'name', order: 'asc' } });
  const list = usePipelinesQuery(listParams.params);
  return (
    <TableSection<PipelineSummary>
      id="pipelines-list-title"
      title={t('pipelines.listTitle')}
      columns={[
        {
          id: 'name',
          header: t('pipelines.columns.name'),
          cell: (p) => p.name,
          primary: true,
          sortKey: 'name',
        },
        {
          id: 'version',
          header: t('pipelines.columns.version'),
          cell: (p) => p.version,
          sortKey: 'version',
          hideBelow: 'sm',
        },
        timeColumn<PipelineSummary>(
          'updated',
          t('pipelines.columns.updated'),
          (p) => p.updatedAt,
          i18n.language,
          {
            sortKey: 'updatedAt',
            hideBelow: 'sm',
          },
        ),
      ]}
      rows={list.data?.rows}
      getRowId={(p) => p.id}
      rowHref={(p) => `/pipelines/${p.id}`}
      rowTestId="pipeline-row"
      {...listStates(list, t('pipelines.loadError'), {
        empty: (
          <EmptyState icon={icon} title={t('pipelines.noPipelines')}>
            {t('pipelines.noPipelinesBody')}
          </EmptyState>
        ),
        ...listParams.table,
        pagerIfNeeded: true,
      })}
    />
  );
}
