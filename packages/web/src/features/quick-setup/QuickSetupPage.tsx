import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppTemplate, Permission, QuickSetupResult } from '@slipway/contracts';
import { AreaPage } from '../../ui/AreaPage';
import { BackLink } from '../../ui/BackLink';
import { EmptyState } from '../../ui/EmptyState';
import { Loaded } from '../../ui/Loaded';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { RequirePermission } from '../access/RequirePermission';
import { useCan } from '../access/usePermission';
import { useAppTemplatesQuery } from './api';
import { QuickSetupForm } from './QuickSetupForm';
import { QuickSetupResultView } from './QuickSetupResultView';

/**
 * What quick setup makes besides the application, each of which the caller must be allowed to make
 * too (the server refuses the call otherwise): the repository, the secrets, the registry token,
 * the pipeline and its first run.
 */
const ALSO_NEEDED: Permission[] = [
  'repositories:create',
  'secrets:create',
  'registries:edit',
  'pipelines:create',
  'pipelines:execute',
];

/** The setup, then what it made; "Set up another" starts over with a fresh form. */
function QuickSetup() {
  const { t } = useTranslation();
  const templates = useAppTemplatesQuery();
  const can = useCan();
  const missing = ALSO_NEEDED.filter((p) => !can(p));
  const [made, setMade] = useState<{ result: QuickSetupResult; name: string; template: AppTemplate }>();
  const [round, setRound] = useState(0);

  if (made) {
    return (
      <QuickSetupResultView
        result={made.result}
        name={made.name}
        templateName={made.template.name}
        onAnother={() => {
          setMade(undefined);
          setRound((n) => n + 1);
        }}
      />
    );
  }
  return (
    <>
      <Typography color="text.secondary">{t('quickSetup.intro')}</Typography>
      {missing.length ? (
        <Alert severity="warning" data-testid="quick-setup-missing-permissions">
          {t('quickSetup.missingPermissions', { permissions: missing.join(', ') })}
        </Alert>
      ) : null}
      <Loaded query={templates} lines={8} what={t('quickSetup.loadError.templates')}>
        {(list) =>
          list.length ? (
            <QuickSetupForm
              key={round}
              templates={list}
              onCreated={(result, { name, template }) => setMade({ result, name, template })}
            />
          ) : (
            <EmptyState title={t('quickSetup.template.none')} />
          )
        }
      </Loaded>
    </>
  );
}

/**
 * Quick setup (spec §1): a newcomer's one screen from nothing to a running pipeline. Only for
 * those who may create applications; the others get the access denied screen.
 */
export default function QuickSetupPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('quickSetup.title'));
  return (
    <Box sx={{ maxWidth: 1200 }}>
      <BackLink to="/applications">{t('quickSetup.back')}</BackLink>
      <RequirePermission permission="applications:create">
        <AreaPage id="quick-setup" title={t('quickSetup.title')}>
          <QuickSetup />
        </AreaPage>
      </RequirePermission>
    </Box>
  );
}
