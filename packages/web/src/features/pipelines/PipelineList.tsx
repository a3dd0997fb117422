import type { PipelineSummary } from '@slipway/contracts';
import type { ElementType } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, queryStates, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { usePaging } from '../../ui/ListPager';
import { Section } from '../../ui/Section';
import { usePipelinesQuery } from './api';
import { formatTime } from './format';

const PAGE_SIZE = 10;

/** The workspace's pipelines: name, current version and last change; a row opens the pipeline. */
export function PipelineList({ icon }: { icon?: ElementType }) {
  const { t, i18n } = useTranslation();
  const paging = usePaging([PAGE_SIZE]);
  const list = usePipelinesQuery(paging.range);
  const columns: Column<PipelineSummary>[] = [
    { id: 'name', header: t('pipelines.columns.name'), cell: (p) => p.name, primary: true },
    { id: 'version', header: t('pipelines.columns.version'), cell: (p) => p.version },
    {
      id: 'updated',
      header: t('pipelines.columns.updated'),
      cell: (p) => formatTime(p.updatedAt, i18n.language),
    },
  ];
  return (
    <Section id="pipelines-list-title" title={t('pipelines.listTitle')}>
      <DataTable
        aria-label={t('pipelines.listTitle')}
        columns={columns}
        rows={list.data?.rows}
        getRowId={(p) => p.id}
        rowHref={(p) => `/pipelines/${p.id}`}
        rowTestId="pipeline-row"
        {...queryStates(list, t('pipelines.loadError'))}
        empty={
          <EmptyState icon={icon} title={t('pipelines.noPipelines')}>
            {t('pipelines.noPipelinesBody')}
          </EmptyState>
        }
        paging={paging}
        total={list.data?.total}
        pagerIfNeeded
      />
    </Section>
  );
}
