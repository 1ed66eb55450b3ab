import { useState, type ReactNode } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import Divider from '@mui/material/Divider';
import AppsIcon from '@mui/icons-material/AppsOutlined';
import ApartmentIcon from '@mui/icons-material/ApartmentOutlined';
import DashboardIcon from '@mui/icons-material/SpaceDashboardOutlined';
import HistoryIcon from '@mui/icons-material/ManageSearchOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import PeopleIcon from '@mui/icons-material/PeopleOutlineOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { navItemSx, ResponsiveNav, SignOutItem } from '../../components/ResponsiveNav.tsx';
import { useAuth } from '../account/auth-context.tsx';
import { useAdmin } from './admin-context.tsx';

export const ADMIN_MENU_WIDTH = 240;

type Section = 'dashboard' | 'tenants' | 'clients' | 'users' | 'audit';
const SECTIONS: { key: Section; to: string; icon: ReactNode; under: RegExp }[] = [
  { key: 'dashboard', to: '/admin/dashboard', icon: <DashboardIcon />, under: /^\/admin\/dashboard/ },
  { key: 'tenants', to: '/admin/tenants', icon: <ApartmentIcon />, under: /^\/admin\/tenants(\/(new|[^/]+))?$/ },
  { key: 'clients', to: '/admin/clients', icon: <AppsIcon />, under: /^\/admin\/(clients|tenants\/[^/]+\/clients)/ },
  { key: 'users', to: '/admin/users', icon: <PeopleIcon />, under: /^\/admin\/(users|tenants\/[^/]+\/users)/ },
  { key: 'audit', to: '/admin/audit', icon: <HistoryIcon />, under: /^\/admin\/audit/ },
];

/** App bar (menu button on small screens, the tenant picker, language, sign out), navigation on the left, the page on the right. */
export function AdminLayout() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar sx={{ gap: 1, flexWrap: { xs: 'wrap', sm: 'nowrap' }, py: { xs: 1, sm: 0 } }}>
          <IconButton edge="start" aria-label={t('admin.openNavigation')} onClick={() => setOpen(true)} sx={{ display: { md: 'none' } }}>
            <MenuIcon />
          </IconButton>
          <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.15rem', color: 'primary.main', whiteSpace: 'nowrap' }}>
            {t('admin.title')}
          </Typography>
          <Box sx={{ flex: 1 }} />
          <LanguageSwitcher />
          <TenantPicker />
        </Toolbar>
      </AppBar>
      <Box sx={{ flex: 1, display: 'flex' }}>
        <Navigation open={open} onClose={() => setOpen(false)} />
        <Box component="main" sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3 }, py: { xs: 2.5, sm: 4 } }}>
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}

/** Operators pick any tenant, tenant admins one of theirs: the clients and users pages work in it. */
function TenantPicker() {
  const { t } = useTranslation();
  const { tenants, tenantId, setTenantId } = useAdmin();
  if (tenants.length === 0 || !tenantId) return null;
  return (
    <TextField
      select
      size="small"
      label={t('admin.tenantPicker')}
      value={tenantId}
      onChange={(event) => setTenantId(event.target.value)}
      sx={{ minWidth: 160, maxWidth: { xs: '100%', sm: 260 }, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
    >
      {tenants.map((tenant) => (
        <MenuItem key={tenant.id} value={tenant.id}>
          {tenant.name === tenant.id ? tenant.id : `${tenant.name} (${tenant.id})`}
        </MenuItem>
      ))}
    </TextField>
  );
}

function Navigation({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const { pathname } = useLocation();
  const items = (
    <Box component="nav" aria-label={t('admin.navigation')} sx={{ width: ADMIN_MENU_WIDTH, pt: 1 }}>
      <List>
        {SECTIONS.map(({ key, to, icon, under }) => (
          <ListItem key={key} disablePadding>
            <ListItemButton
              component={RouterLink}
              to={to}
              className={under.test(pathname) ? 'active' : undefined}
              aria-current={under.test(pathname) ? 'page' : undefined}
              onClick={onClose}
              sx={navItemSx}
            >
              <ListItemIcon>{icon}</ListItemIcon>
              <ListItemText primary={t(`admin.menu.${key}`)} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      <Divider sx={{ mx: 2 }} />
      <List>
        <SignOutItem label={t('admin.signOut')} onClose={onClose} signOut={signOut} />
      </List>
    </Box>
  );
  return (
    <ResponsiveNav open={open} onClose={onClose} label={t('admin.navigation')} width={ADMIN_MENU_WIDTH} columnSx={{ borderRight: 1, borderColor: 'divider' }}>
      {items}
    </ResponsiveNav>
  );
}
