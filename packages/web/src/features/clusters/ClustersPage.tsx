import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaPage } from '../../ui/AreaPage';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { CreateButton } from '../access/PermissionActions';
import { AttachClusterDialog } from './AttachClusterDialog';
import { ClusterList } from './ClusterList';

/** Clusters: the workspace's attached clusters, and the attach modal. */
export default function ClustersPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('clusters.title'));
  const [attaching, setAttaching] = useState(false);
  return (
    <AreaPage
      id="clusters"
      title={t('clusters.title')}
      actions={
        <CreateButton
          permission="clusters:create"
          onClick={() => setAttaching(true)}
          data-testid="attach-cluster-button"
          data-tour="cluster-attach-open"
        >
          {t('clusters.attach')}
        </CreateButton>
      }
    >
      <ClusterList
        emptyAction={
          <PermissionButton
            permission="clusters:create"
            variant="outlined"
            onClick={() => setAttaching(true)}
          >
            {t('clusters.attach')}
          </PermissionButton>
        }
      />
      {attaching ? <AttachClusterDialog onClose={() => setAttaching(false)} /> : null}
    </AreaPage>
  );
}
