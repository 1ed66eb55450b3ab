import Avatar from '@mui/material/Avatar';
import { initials } from './use-profile.ts';

/**
 * The user's picture, or the initials of the name when there is none. `alt` names it for screen
 * readers; an empty `alt` marks it decorative (the name is written next to it).
 */
export function UserAvatar({ name, src, size = 40, alt }: { name: string; src: string | null | undefined; size?: number; alt?: string }) {
  const label = alt ?? name;
  const a11y = src ? {} : label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <Avatar src={src ?? undefined} alt={label} {...a11y} sx={{ width: size, height: size, fontSize: size * 0.4, bgcolor: 'primary.main' }}>
      {initials(name)}
    </Avatar>
  );
}
