import { useState } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { useAuth } from './auth-context.tsx';
import { UserAvatar } from './UserAvatar.tsx';
import { contactOf, displayName, useProfile } from './use-profile.ts';

/** Hamburger (small screens), app name, language switcher, 'Hi' + name and the user menu. */
export function AccountHeader({ onOpenNavigation }: { onOpenNavigation: () => void }) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const profile = useProfile().data;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The menu joins the page when it is first opened, and stays for its closing animation: closed,
  // it is never seen, and building it was a sixth of the account area's first long task on a slow
  // phone. MUI's menu animates its first opening as every other.
  const [menuMounted, setMenuMounted] = useState(false);
  const name = displayName(profile);

  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      {/* On a phone the greeting wraps to a line of its own, so the name has the whole width. */}
      <Toolbar sx={{ gap: 1, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
        <IconButton edge="start" aria-label={t('account.openNavigation')} onClick={onOpenNavigation} sx={{ display: { md: 'none' } }}>
          <MenuIcon />
        </IconButton>
        <Link component={RouterLink} to="/user/dashboard" underline="none" sx={{ fontWeight: 700, fontSize: '1.2rem' }}>
          {t('app.name')}
        </Link>
        <Box sx={{ flex: 1 }} />
        <LanguageSwitcher />
        {name && (
          <Typography noWrap sx={{ minWidth: 0, flexShrink: 1, order: { xs: 1, sm: 0 }, flexBasis: { xs: '100%', sm: 'auto' }, pb: { xs: 1, sm: 0 } }}>
            {t('account.hi', { name })}
          </Typography>
        )}
        <IconButton
          aria-label={t('account.userMenu')}
          aria-haspopup="menu"
          aria-expanded={Boolean(anchor)}
          onClick={(event) => {
            setMenuMounted(true);
            setAnchor(event.currentTarget);
          }}
        >
          <UserAvatar name={name} src={profile?.avatarUrl} size={36} alt="" />
        </IconButton>
        {menuMounted && (
          <Menu
            anchorEl={anchor}
            open={Boolean(anchor)}
            onClose={() => setAnchor(null)}
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          >
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1.5, maxWidth: 320 }}>
              <UserAvatar name={name} src={profile?.avatarUrl} size={48} alt="" />
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</Typography>
                <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
                  {contactOf(profile)}
                </Typography>
              </Box>
            </Box>
            <Divider />
            <MenuItem
              onClick={() => {
                setAnchor(null);
                signOut();
              }}
            >
              <ListItemIcon>
                <LogoutIcon fontSize="small" />
              </ListItemIcon>
              {t('account.logout')}
            </MenuItem>
          </Menu>
        )}
      </Toolbar>
    </AppBar>
  );
}
