import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Icon } from '../../ui/Icon';
import { callerAllows } from '../../features/access/permission-check';
import { useCallerPermissions } from '../../features/access/usePermission';
import { HOME, NAV_GROUPS, type NavItem } from '../navigation';
import { NAV_ICONS } from './nav-icons';

function SidebarLink({ item, onNavigate }: { item: NavItem; onNavigate?: (() => void) | undefined }) {
  const { t } = useTranslation();
  return (
    <ListItemButton
      component={NavLink}
      to={item.path}
      end
      onClick={onNavigate}
      data-testid={`nav-${item.id}`}
      data-tour={item.tourTarget}
      sx={{
        borderRadius: 1.5,
        mx: 1,
        py: 0.5,
        '&.active': { bgcolor: 'primary.main', color: 'primary.contrastText' },
        '&.active .MuiListItemIcon-root': { color: 'primary.contrastText' },
      }}
    >
      <ListItemIcon sx={{ minWidth: 36 }}>
        <Icon icon={NAV_ICONS[item.id]} fontSize="small" />
      </ListItemIcon>
      <ListItemText primary={t(`nav.${item.id}`)} slotProps={{ primary: { fontSize: 14 } }} />
    </ListItemButton>
  );
}

/**
 * Every area of the product the caller may open, grouped: build, deploy, operate, insight,
 * settings. Until the caller's permissions have loaded every area is listed (no flicker of a
 * half-empty menu); a page reached by its address still shows the access denied screen.
 */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { data: permissions } = useCallerPermissions();
  const visible = (item: NavItem) =>
    !item.permission || !permissions || callerAllows(permissions, item.permission);
  const groups = NAV_GROUPS.map((g) => ({ ...g, items: g.items.filter(visible) })).filter(
    (g) => g.items.length > 0,
  );
  return (
    <nav aria-label={t('app.mainNavigation')} data-testid="sidebar">
      <List dense disablePadding sx={{ pt: 1 }}>
        <SidebarLink item={HOME} onNavigate={onNavigate} />
      </List>
      {groups.map((group) => (
        <List
          key={group.id}
          dense
          disablePadding
          aria-labelledby={`nav-group-${group.id}`}
          subheader={
            <ListSubheader
              id={`nav-group-${group.id}`}
              disableSticky
              sx={{
                lineHeight: '32px',
                mt: 1,
                bgcolor: 'transparent',
                textTransform: 'uppercase',
                fontSize: 11,
                letterSpacing: 0.6,
              }}
            >
              {t(`groups.${group.id}`)}
            </ListSubheader>
          }
        >
          {group.items.map((item) => (
            <SidebarLink key={item.id} item={item} onNavigate={onNavigate} />
          ))}
        </List>
      ))}
    </nav>
  );
}
