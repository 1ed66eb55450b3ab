import { useState } from 'react';
import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { AccountHeader } from './AccountHeader.tsx';
import { SideMenu } from './SideMenu.tsx';

/** Header on top, side menu on the left, the page on the right. */
export function AccountLayout() {
  const [navigationOpen, setNavigationOpen] = useState(false);
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <AccountHeader onOpenNavigation={() => setNavigationOpen(true)} />
      <Box sx={{ flex: 1, display: 'flex' }}>
        <SideMenu open={navigationOpen} onClose={() => setNavigationOpen(false)} />
        <Box component="main" sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 4 } }}>
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
