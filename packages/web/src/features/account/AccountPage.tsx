import { useTranslation } from 'react-i18next';
import { AreaPage } from '../../ui/AreaPage';
import { Section } from '../../ui/Section';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { usePermission } from '../access/usePermission';
import { WorkspaceRunLimitSection } from '../run-limits/WorkspaceRunLimitSection';
import { SsoSection } from '../sso/SsoSection';
import { OrganisationsSection } from './OrganisationsSection';
import { RunLimitSection } from './RunLimitSection';
import { WorkspacesSection } from './WorkspacesSection';

/** Account management: organisations (switch, rename), the run duration limit, workspaces, and enterprise SSO. */
export default function AccountPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('account.title'));
  const ssoVisible = usePermission('sso:view').allowed;
  return (
    <AreaPage id="account" title={t('account.title')} maxWidth={960}>
      <Section id="organisations-heading" title={t('account.organisationsTitle')}>
        <OrganisationsSection />
      </Section>
      <Section id="run-limit-heading" title={t('account.runLimit.title')}>
        <RunLimitSection />
      </Section>
      <Section id="workspaces-heading" title={t('account.workspacesTitle')}>
        <WorkspacesSection />
      </Section>
      <Section id="workspace-run-limit-heading" title={t('runLimits.workspace.title')}>
        <WorkspaceRunLimitSection />
      </Section>
      {ssoVisible ? (
        <Section id="sso-heading" title={t('sso.title')}>
          <SsoSection />
        </Section>
      ) : null}
    </AreaPage>
  );
}
