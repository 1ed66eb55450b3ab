import Avatar from '@mui/material/Avatar';
import { initials } from './use-profile.ts';

/** The user's picture, or the initials of the name when there is none. */
export function UserAvatar({ name, src, size = 40, alt }: { name: string; src: string | null | undefined; size?: number; alt?: string }) {
  return (
    <Avatar src={src ?? undefined} alt={alt ?? name} sx={{ width: size, height: size, fontSize: size * 0.4, bgcolor: 'primary.main' }}>
      {initials(name)}
    </Avatar>
  );
}
