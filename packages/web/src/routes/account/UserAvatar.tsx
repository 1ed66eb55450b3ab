import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import { initials } from './use-profile.ts';

/**
 * The user's picture, or the initials of the name when there is none. `alt` names it for screen
 * readers; an empty `alt` marks it decorative (the name is written next to it).
 */
export function UserAvatar({ name, src, size = 40, alt }: { name: string; src: string | null | undefined; size?: number; alt?: string }) {
  const label = alt ?? name;
  const a11y = src ? {} : label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  // Decorative initials are drawn by CSS: as text they would be words inside the control that
  // holds the avatar (the user-menu button) that its name does not contain (WCAG 2.5.3).
  const letters = initials(name);
  const content = label ? letters : <Box component="span" sx={{ '&::before': { content: JSON.stringify(letters) } }} />;
  return (
    <Avatar src={src ?? undefined} alt={label} {...a11y} sx={{ width: size, height: size, fontSize: size * 0.4, bgcolor: 'primary.main' }}>
      {content}
    </Avatar>
  );
}
