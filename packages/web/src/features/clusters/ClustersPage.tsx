import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { AttachClusterDialog } from './AttachClusterDialog';
import { ClusterList } from './ClusterList';

/** Clusters: the workspace's attached clusters, and the attach modal. */
export default function ClustersPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('clusters.title'));
  const [attaching, setAttaching] = useState(false);
  const attachButton = (
    <PermissionButton
      permission="clusters:create"
      variant="contained"
      startIcon={<Add />}
      onClick={() => setAttaching(true)}
      data-testid="attach-cluster-button"
      data-tour="cluster-attach-open"
    >
      {t('clusters.attach')}
    </PermissionButton>
  );
  return (
    <Box data-testid="area-clusters" sx={{ maxWidth: 1200 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {t('clusters.title')}
        </Typography>
        <Box sx={{ ml: 'auto' }}>{attachButton}</Box>
      </Box>
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
    </Box>
  );
}
