import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './DataTable';
import { Section } from './Section';

/**
 * A titled section of a page holding one list: `Section` (heading `id`, `title`, `action`) over a
 * `DataTable` named by the title unless `aria-label` says otherwise.
 */
export function TableSection<Row>({
  id,
  title,
  action,
  ...table
}: DataTableProps<Row> & { id: string; title: string; action?: ReactNode }) {
  return (
    <Section id={id} title={title} action={action}>
      <DataTable aria-label={title} {...table} />
    </Section>
  );
}
