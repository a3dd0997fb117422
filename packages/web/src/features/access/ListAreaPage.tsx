import type { AlertColor } from '@mui/material/Alert';
import type { ReactNode } from 'react';
import type { Permission } from '@slipway/contracts';
import { AreaPage } from '../../ui/AreaPage';
import { FormAlert } from '../../ui/FormAlert';
import { Section } from '../../ui/Section';
import { CreateButton } from './PermissionActions';

/**
 * An area's page around one list: the title with its "new …" button (needing `create.permission`),
 * an alert over the list when `notice` has a message (a toggle that failed, a sync's outcome), the
 * list (in a titled `section` when given), then `children` (the dialogs it opens).
 */
export function ListAreaPage({
  id,
  testId,
  title,
  create,
  notice,
  section,
  list,
  children,
}: {
  id: string;
  testId?: string;
  title: string;
  /** the "new …" button; `tourTarget` marks it for the guided tour (its `data-tour`) */
  create: { permission: Permission; label: string; onClick: () => void; tourTarget?: string };
  notice?: { message: string | null | undefined; severity?: AlertColor };
  section?: { id: string; title: string };
  list: ReactNode;
  children?: ReactNode;
}) {
  return (
    <AreaPage
      id={id}
      testId={testId}
      title={title}
      actions={
        <CreateButton permission={create.permission} onClick={create.onClick} data-tour={create.tourTarget}>
          {create.label}
        </CreateButton>
      }
    >
      {notice ? <FormAlert {...notice} /> : null}
      {section ? (
        <Section id={section.id} title={section.title}>
          {list}
        </Section>
      ) : (
        list
      )}
      {children}
    </AreaPage>
  );
}
