import Logout from '@mui/icons-material/Logout';
import Person from '@mui/icons-material/Person';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useLogoutMutation } from '../../features/auth/api';
import { SIGN_OUT } from '../../features/auth/sign-out';
import { initials, useProfileQuery } from '../../features/profile/api';
import { TakeTourMenuItem } from '../../features/tour/TakeTourMenuItem';
import { Skeleton } from '../../ui/Skeleton';

/** The avatar in the top bar (the user's initials) opening profile settings and sign out. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: profile, isLoading } = useProfileQuery();
  const [logout] = useLogoutMutation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  async function signOut() {
    setAnchor(null);
    // The server revokes the session; whatever it answers, this browser forgets it.
    await logout();
    // The login page ends the session once the guarded pages are gone; ending it here would
    // have the route guard send the user to /login?next=<this page> instead.
    await navigate('/login', { replace: true, state: SIGN_OUT });
  }

  if (isLoading) return <Skeleton variant="circular" width={36} height={36} />;
  const name = profile ? `${profile.firstName} ${profile.lastName}`.trim() || profile.email : '';
  return (
    <>
      <IconButton
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'user-menu' : undefined}
        aria-label={name ? t('userMenu.label', { name }) : t('userMenu.labelAnonymous')}
        data-testid="user-menu"
        size="small"
      >
        <Avatar sx={{ width: 36, height: 36, bgcolor: 'secondary.main', fontSize: 15 }}>
          {profile ? initials(profile) : <Person aria-hidden />}
        </Avatar>
      </IconButton>
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {profile ? (
          <ListItemText
            sx={{ px: 2, py: 1 }}
            primary={name}
            secondary={profile.email}
            data-testid="user-menu-identity"
          />
        ) : null}
        {profile ? <Divider /> : null}
        <MenuItem component={RouterLink} to="/settings/profile" onClick={() => setAnchor(null)}>
          <ListItemIcon>
            <Person fontSize="small" aria-hidden />
          </ListItemIcon>
          {t('userMenu.profile')}
        </MenuItem>
        <TakeTourMenuItem onDone={() => setAnchor(null)} />
        <MenuItem onClick={() => void signOut()} data-testid="sign-out">
          <ListItemIcon>
            <Logout fontSize="small" aria-hidden />
          </ListItemIcon>
          {t('userMenu.signOut')}
        </MenuItem>
      </Menu>
    </>
  );
}
