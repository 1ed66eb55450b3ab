import { useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import LogoutIcon from '@mui/icons-material/Logout';

/** A menu entry, rounded on the right; the current page's ('active') in the primary colour. */
export const navItemSx = {
  borderRadius: '0 24px 24px 0',
  mr: 1,
  '&.active': { bgcolor: 'action.selected', color: 'primary.main', '& .MuiListItemIcon-root': { color: 'primary.main' }, '& .MuiListItemText-primary': { fontWeight: 600 } },
} as const;

/** The last entry of a menu: signs out (and closes the drawer it is in). */
export function SignOutItem({ label, onClose, signOut }: { label: string; onClose: () => void; signOut: () => void }) {
  return (
    <ListItem disablePadding>
      <ListItemButton
        onClick={() => {
          onClose();
          signOut();
        }}
        sx={navItemSx}
      >
        <ListItemIcon>
          <LogoutIcon />
        </ListItemIcon>
        <ListItemText primary={label} />
      </ListItemButton>
    </ListItem>
  );
}

interface ResponsiveNavProps {
  open: boolean;
  onClose: () => void;
  /** The drawer's accessible name (the navigation's own label is on its nav element). */
  label: string;
  width: number;
  /** Extra styles of the permanent column on wide screens. */
  columnSx?: object;
  children: ReactNode;
}

/**
 * Whether a small screen's closed drawer is in the page yet: not in the first render, where it is
 * never seen and building it was a fifth of the account area's first long task on a slow phone,
 * but from the browser's first idle moment, so that its first opening slides in as every later
 * one (MUI's drawer animates an opening only once it has been mounted). Opened before that, it
 * comes at once.
 */
function useClosedDrawerMounted(small: boolean): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (!small || mounted) return undefined;
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setMounted(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setMounted(true), 200);
    return () => window.clearTimeout(id);
  }, [small, mounted]);
  return mounted;
}

/**
 * Navigation as a permanent column on wide screens and a drawer behind the hamburger on small ones.
 * Only the one the screen shows is rendered: a phone's first render no longer builds the hidden
 * column's every entry (a quarter of the account area's first, longest task). Each keeps its CSS
 * rule too, so a window crossing the breakpoint never shows the wrong one while React catches up.
 */
export function ResponsiveNav({ open, onClose, label, width, columnSx, children }: ResponsiveNavProps) {
  const wide = useMediaQuery(useTheme().breakpoints.up('md'), { noSsr: true });
  const drawerMounted = useClosedDrawerMounted(!wide);
  if (wide) return <Box sx={{ display: { xs: 'none', md: 'block' }, flexShrink: 0, width, ...columnSx }}>{children}</Box>;
  if (!open && !drawerMounted) return null;
  return (
    <Drawer variant="temporary" open={open} onClose={onClose} slotProps={{ paper: { 'aria-label': label } }} sx={{ display: { xs: 'block', md: 'none' } }}>
      {children}
    </Drawer>
  );
}
