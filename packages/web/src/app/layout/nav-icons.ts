import AccountTree from '@mui/icons-material/AccountTree';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Backup from '@mui/icons-material/Backup';
import BarChart from '@mui/icons-material/BarChart';
import CallSplit from '@mui/icons-material/CallSplit';
import Cloud from '@mui/icons-material/Cloud';
import CreditCard from '@mui/icons-material/CreditCard';
import Dashboard from '@mui/icons-material/Dashboard';
import Extension from '@mui/icons-material/Extension';
import Groups from '@mui/icons-material/Groups';
import History from '@mui/icons-material/History';
import Hub from '@mui/icons-material/Hub';
import Inventory2 from '@mui/icons-material/Inventory2';
import Key from '@mui/icons-material/Key';
import Layers from '@mui/icons-material/Layers';
import Link from '@mui/icons-material/Link';
import ListAlt from '@mui/icons-material/ListAlt';
import ManageAccounts from '@mui/icons-material/ManageAccounts';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import Notifications from '@mui/icons-material/Notifications';
import Person from '@mui/icons-material/Person';
import PhotoCamera from '@mui/icons-material/PhotoCamera';
import Restore from '@mui/icons-material/Restore';
import RocketLaunch from '@mui/icons-material/RocketLaunch';
import Schedule from '@mui/icons-material/Schedule';
import Security from '@mui/icons-material/Security';
import SettingsEthernet from '@mui/icons-material/SettingsEthernet';
import SmartToy from '@mui/icons-material/SmartToy';
import Storage from '@mui/icons-material/Storage';
import Token from '@mui/icons-material/Token';
import Tune from '@mui/icons-material/Tune';
import ViewQuilt from '@mui/icons-material/ViewQuilt';
import Webhook from '@mui/icons-material/Webhook';
import Widgets from '@mui/icons-material/Widgets';
import type { ElementType } from 'react';
import type { AreaId } from '../navigation';

export const NAV_ICONS: Record<AreaId, ElementType> = {
  dashboard: Dashboard,
  applications: Inventory2,
  pipelines: AccountTree,
  pipelineTemplates: ViewQuilt,
  taskTemplates: Widgets,
  externalPipelines: CallSplit,
  studio: Hub,
  repositories: Storage,
  registries: Layers,
  securityScanning: Security,
  releases: RocketLaunch,
  schedules: Schedule,
  clusters: Cloud,
  environments: SettingsEthernet,
  helm: Extension,
  snapshots: PhotoCamera,
  restoredSnapshots: Restore,
  blockchain: Token,
  backups: Backup,
  alerts: NotificationsActive,
  notifications: Notifications,
  webhooks: Webhook,
  secrets: Key,
  configMaps: Tune,
  doraMetrics: BarChart,
  auditTrails: History,
  providers: Link,
  profile: Person,
  account: ManageAccounts,
  team: Groups,
  roles: AdminPanelSettings,
  serviceAccounts: SmartToy,
  billing: CreditCard,
};

/** Used by pages that have not been given an icon of their own. */
export const FALLBACK_ICON: ElementType = ListAlt;
