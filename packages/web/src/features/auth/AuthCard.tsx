import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** The frame of every sign-in screen: the product name, a heading, an intro, the form, links. */
export function AuthCard({
  title,
  intro,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return (
    <Box
      component="main"
      data-testid="auth-page"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}
    >
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, maxWidth: 440, width: '100%' }}>
        <Typography component="p" variant="h6" color="primary" sx={{ fontWeight: 700 }}>
          {t('app.name')}
        </Typography>
        <Typography variant="h5" component="h1" sx={{ mt: 1, mb: intro ? 1 : 3 }}>
          {title}
        </Typography>
        {intro ? (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {intro}
          </Typography>
        ) : null}
        {children}
        {footer ? <Box sx={{ mt: 3, textAlign: 'center', display: 'grid', gap: 1 }}>{footer}</Box> : null}
      </Paper>
    </Box>
  );
}

/** The link back to the sign-in page under an auth card. */
export function BackToLogin() {
  const { t } = useTranslation();
  return (
    <Link component={RouterLink} to="/login" variant="body2">
      {t('auth.backToLogin')}
    </Link>
  );
}

/** The card of a single-use link that came without its token. */
export function MissingTokenCard({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <AuthCard title={title} footer={<BackToLogin />}>
      <Alert severity="warning">{t('auth.missingToken')}</Alert>
    </AuthCard>
  );
}

/** A card's footer line that sends to the other way in: "No account yet? Sign up". */
export function OtherWayIn({ text, to, link }: { text: string; to: string; link: string }) {
  return (
    <Typography variant="body2">
      {text}{' '}
      <Link component={RouterLink} to={to}>
        {link}
      </Link>
    </Typography>
  );
}
