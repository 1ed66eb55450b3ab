import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { AccountHeader } from './AccountHeader.tsx';
import { SideMenu } from './SideMenu.tsx';
import { useProfile } from './use-profile.ts';
import { useNextTask } from '../../hooks/use-next-task.ts';
import { changeLanguage, currentLanguage } from '../../i18n/i18n.ts';
import { asLocale, userChoseLocale } from '../../i18n/language.ts';

/**
 * The account area speaks the user's own language (the `locale` stored with the account, set at
 * registration) unless the address or a choice made with the switcher says otherwise. A component
 * of its own that draws nothing: the profile's arrival then re-renders it alone, not the whole
 * layout (on a slow phone that second render of every menu item and card was a 100 ms task).
 */
function AccountLanguage(): null {
  const locale = asLocale(useProfile().data?.locale);
  useEffect(() => {
    if (locale && !userChoseLocale() && locale !== currentLanguage()) void changeLanguage(locale);
  }, [locale]);
  return null;
}

/** Header on top, side menu on the left, the page on the right. */
export function AccountLayout() {
  const [navigationOpen, setNavigationOpen] = useState(false);
  // The page comes a task after the header: the area's first render was one long task on a slow
  // phone, and the server's shell covers the screen until the page's heading is in place.
  const pageDrawn = useNextTask();
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <AccountLanguage />
      <AccountHeader onOpenNavigation={() => setNavigationOpen(true)} />
      <Box sx={{ flex: 1, display: 'flex' }}>
        <SideMenu open={navigationOpen} onClose={() => setNavigationOpen(false)} />
        <Box component="main" sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 4 } }}>
          {pageDrawn && <Outlet />}
        </Box>
      </Box>
    </Box>
  );
}
