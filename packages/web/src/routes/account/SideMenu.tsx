import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import DashboardIcon from '@mui/icons-material/SpaceDashboardOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useAuth } from './auth-context.tsx';

export const SIDE_MENU_WIDTH = 260;

/** The account area's navigation: a permanent column on wide screens, a drawer behind the hamburger on small ones. */
export function SideMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const items = (
    <Box component="nav" aria-label={t('account.navigation')} sx={{ width: SIDE_MENU_WIDTH, pt: 1 }}>
      <List>
        <ListItemButton component={NavLink} to="/user/dashboard" onClick={onClose} sx={{ borderRadius: '0 24px 24px 0', mr: 1, '&.active': { bgcolor: 'action.selected', fontWeight: 600 } }}>
          <ListItemIcon>
            <DashboardIcon />
          </ListItemIcon>
          <ListItemText primary={t('account.menu.dashboard')} />
        </ListItemButton>
        <ListItemButton onClick={signOut} sx={{ borderRadius: '0 24px 24px 0', mr: 1 }}>
          <ListItemIcon>
            <LogoutIcon />
          </ListItemIcon>
          <ListItemText primary={t('account.logout')} />
        </ListItemButton>
      </List>
    </Box>
  );
  return (
    <>
      <Drawer variant="temporary" open={open} onClose={onClose} sx={{ display: { xs: 'block', md: 'none' } }}>
        {items}
      </Drawer>
      <Box sx={{ display: { xs: 'none', md: 'block' }, flexShrink: 0, width: SIDE_MENU_WIDTH }}>{items}</Box>
    </>
  );
}
