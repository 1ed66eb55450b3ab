import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { alpha, darken, styled, type SxProps, type Theme } from '@mui/material/styles';

export interface ActionButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'contained' | 'outlined' | 'text';
  size?: 'small' | 'medium' | 'large';
  fullWidth?: boolean;
  startIcon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
  sx?: SxProps<Theme>;
}

const Root = styled('button')(({ theme }) => {
  const button = theme.palette.button;
  const primary = theme.palette.primary.main;
  return {
    ...theme.typography.button,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: theme.spacing(1),
    minHeight: 40,
    padding: theme.spacing(0.75, 2),
    border: '1px solid transparent',
    borderRadius: theme.shape.borderRadius,
    cursor: 'pointer',
    textDecoration: 'none',
    transition: theme.transitions.create(['background-color', 'border-color', 'color'], { duration: theme.transitions.duration.short }),
    '&[data-size="small"]': { minHeight: 32, padding: theme.spacing(0.25, 1.25), fontSize: '0.8125rem' },
    '&[data-size="large"]': { minHeight: 48, padding: theme.spacing(1, 2.75), fontSize: '0.9375rem' },
    '&[data-full-width="true"]': { width: '100%' },
    '&[data-variant="contained"]': { backgroundColor: button.main, color: button.contrastText },
    '&[data-variant="contained"]:hover': { backgroundColor: darken(button.main, 0.12) },
    '&[data-variant="outlined"]': { backgroundColor: 'transparent', color: primary, borderColor: alpha(primary, 0.5) },
    '&[data-variant="outlined"]:hover': { backgroundColor: alpha(primary, 0.06), borderColor: primary },
    '&[data-variant="text"]': { backgroundColor: 'transparent', color: primary },
    '&[data-variant="text"]:hover': { backgroundColor: alpha(primary, 0.06) },
    '&:focus-visible': { outline: `3px solid ${alpha(primary, 0.5)}`, outlineOffset: 2 },
    '&:disabled': {
      cursor: 'default',
      color: theme.palette.action.disabled,
      backgroundColor: 'transparent',
      borderColor: 'transparent',
    },
    '&[data-variant="contained"]:disabled': { backgroundColor: theme.palette.action.disabledBackground },
    '&[data-variant="outlined"]:disabled': { borderColor: theme.palette.action.disabledBackground },
    '& > svg': { fontSize: '1.25rem', flexShrink: 0 },
  };
});

/**
 * The buttons of the public (login-flow) screens: the client's button colour for the main action,
 * outlined and text variants for the others. A light stand-in for MUI's Button, which with its
 * ripple and loading indicator costs the /login budget more than it gives.
 */
export function ActionButton({ variant = 'text', size = 'medium', fullWidth = false, startIcon, type = 'button', children, ...props }: ActionButtonProps) {
  return (
    <Root {...props} type={type} data-variant={variant} data-size={size} data-full-width={fullWidth}>
      {startIcon}
      {children}
    </Root>
  );
}

/** An ActionButton that leaves the page (back to a relying party): a real link, so it opens like one. */
export function ActionLink({
  variant = 'text',
  size = 'medium',
  fullWidth = false,
  children,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & Pick<ActionButtonProps, 'variant' | 'size' | 'fullWidth' | 'sx'>) {
  return (
    <Root as="a" {...(props as object)} data-variant={variant} data-size={size} data-full-width={fullWidth}>
      {children}
    </Root>
  );
}
