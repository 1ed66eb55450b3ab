import { Link as RouterLink } from 'react-router';
import { styled, type Theme } from '@mui/material/styles';

const linkStyle = ({ theme }: { theme: Theme }) => ({
  ...theme.typography.body2,
  color: theme.palette.primary.main,
  fontWeight: 500,
  textDecoration: 'underline',
  textDecorationColor: 'currentColor',
  textUnderlineOffset: 2,
  borderRadius: 2,
  '&:hover': { textDecorationThickness: 2 },
  '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
});

/** A link inside the app (react-router), styled like text. */
export const TextLink = styled(RouterLink)(linkStyle);

/** A link to another site. */
export const ExternalLink = styled('a')(linkStyle);
