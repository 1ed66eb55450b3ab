import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import DashboardIcon from '@mui/icons-material/SpaceDashboardOutlined';
import DataIcon from '@mui/icons-material/ToggleOnOutlined';
import FeedbackIcon from '@mui/icons-material/FeedbackOutlined';
import HelpIcon from '@mui/icons-material/HelpOutlineOutlined';
import PeopleIcon from '@mui/icons-material/PeopleOutlineOutlined';
import PersonIcon from '@mui/icons-material/BadgeOutlined';
import SecurityIcon from '@mui/icons-material/LockOutlined';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { navItemSx, ResponsiveNav, SignOutItem } from '../../components/ResponsiveNav.tsx';
import { useAuth } from './auth-context.tsx';

export const SIDE_MENU_WIDTH = 260;

type MenuKey = 'dashboard' | 'profile' | 'data' | 'security' | 'people' | 'help' | 'feedback';

/** SPEC.md section 2: Dashboard and Personal information lead somewhere; the others are shown inactive. */
const ACTIVE: { key: MenuKey; to: string; icon: ReactNode; alsoUnder?: string }[] = [
  { key: 'dashboard', to: '/user/dashboard', icon: <DashboardIcon /> },
  // The device pages are reached from the profile's My devices: they stay under Personal information.
  { key: 'profile', to: '/user/profile', icon: <PersonIcon />, alsoUnder: '/user/webauthn/' },
];
const INACTIVE: { key: MenuKey; icon: ReactNode }[] = [
  { key: 'data', icon: <DataIcon /> },
  { key: 'security', icon: <SecurityIcon /> },
  { key: 'people', icon: <PeopleIcon /> },
];
const INACTIVE_FOOTER: { key: MenuKey; icon: ReactNode }[] = [
  { key: 'help', icon: <HelpIcon /> },
  { key: 'feedback', icon: <FeedbackIcon /> },
];

/** The account area's navigation: a permanent column on wide screens, a drawer behind the hamburger on small ones. */
export function SideMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const { pathname } = useLocation();
  const inactive = (items: typeof INACTIVE) =>
    items.map(({ key, icon }) => (
      // MUI renders a disabled ListItemButton as a div with aria-disabled and no tab stop.
      <ListItem key={key} disablePadding>
        <ListItemButton disabled sx={navItemSx}>
          <ListItemIcon>{icon}</ListItemIcon>
          <ListItemText primary={t(`account.menu.${key}`)} />
        </ListItemButton>
      </ListItem>
    ));
  const items = (
    <Box component="nav" aria-label={t('account.navigation')} sx={{ width: SIDE_MENU_WIDTH, pt: 1 }}>
      <List>
        {ACTIVE.map(({ key, to, icon, alsoUnder }) => (
          <ListItem key={key} disablePadding>
            <ListItemButton
              component={NavLink}
              to={to}
              // NavLink adds 'active' on its own path; under alsoUnder it is set here.
              className={alsoUnder && pathname.startsWith(alsoUnder) ? 'active' : undefined}
              onClick={onClose}
              sx={navItemSx}
            >
              <ListItemIcon>{icon}</ListItemIcon>
              <ListItemText primary={t(`account.menu.${key}`)} />
            </ListItemButton>
          </ListItem>
        ))}
        {inactive(INACTIVE)}
      </List>
      <Divider sx={{ mx: 2 }} />
      <List>
        {inactive(INACTIVE_FOOTER)}
        <SignOutItem label={t('account.logout')} onClose={onClose} signOut={signOut} />
      </List>
    </Box>
  );
  return (
    <ResponsiveNav open={open} onClose={onClose} label={t('account.navigation')} width={SIDE_MENU_WIDTH}>
      {items}
    </ResponsiveNav>
  );
}
