import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useState } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation, useNavigation } from 'react-router';
import { SystemStatus } from '../../features/system/SystemStatus';
import { TourHost } from '../../features/tour/TourHost';
import { ErrorFallback } from '../../ui/ErrorFallback';
import { LanguageMenu } from './LanguageMenu';
import { Sidebar } from './Sidebar';
import { UserMenu } from './UserMenu';
import { WorkspacePicker } from './WorkspacePicker';

const DRAWER_WIDTH = 272;

/** The application layout: a top bar, the grouped sidebar and the page. */
export default function AppLayout() {
  const { t } = useTranslation();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'));
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  const location = useLocation();

  const drawer = (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar />
      <Box sx={{ flex: 1, overflowY: 'auto', pb: 2 }}>
        <Sidebar onNavigate={desktop ? undefined : () => setOpen(false)} />
      </Box>
      <Divider />
      <Box sx={{ px: 2, py: 1.5 }}>
        <SystemStatus />
      </Box>
    </Box>
  );

  return (
    <Box data-testid="app-shell" sx={{ display: 'flex', minHeight: '100vh' }}>
      <Link
        href="#main"
        sx={{
          position: 'absolute',
          insetInlineStart: 8,
          top: -48,
          zIndex: (z) => z.zIndex.tooltip,
          bgcolor: 'background.paper',
          p: 1,
          '&:focus': { top: 8 },
        }}
      >
        {t('app.skipToContent')}
      </Link>
      <AppBar
        position="fixed"
        elevation={0}
        sx={{ zIndex: (z) => z.zIndex.drawer + 1, borderBottom: 1, borderColor: 'divider' }}
      >
        <Toolbar sx={{ gap: 1 }}>
          {desktop ? null : (
            <IconButton
              color="inherit"
              edge="start"
              aria-label={open ? t('app.closeNavigation') : t('app.openNavigation')}
              onClick={() => setOpen((o) => !o)}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Typography
            variant="h6"
            component={RouterLink}
            to="/dashboard"
            sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700 }}
          >
            {t('app.name')}
          </Typography>
          <Box sx={{ flex: 1 }} />
          <WorkspacePicker />
          <LanguageMenu />
          <UserMenu />
        </Toolbar>
        {navigation.state === 'loading' ? (
          <LinearProgress
            color="secondary"
            sx={{ position: 'absolute', bottom: 0, insetInline: 0, height: 2 }}
          />
        ) : null}
      </AppBar>
      <Drawer
        variant={desktop ? 'permanent' : 'temporary'}
        open={desktop || open}
        onClose={() => setOpen(false)}
        sx={{
          width: DRAWER_WIDTH,
          flexShrink: 0,
          '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
        }}
      >
        {drawer}
      </Drawer>
      <Box component="main" id="main" tabIndex={-1} sx={{ flex: 1, minWidth: 0, p: { xs: 2, md: 4 } }}>
        <Toolbar />
        <ErrorBoundary FallbackComponent={ErrorFallback} resetKeys={[location.pathname]}>
          <Outlet />
        </ErrorBoundary>
      </Box>
      <TourHost />
    </Box>
  );
}
