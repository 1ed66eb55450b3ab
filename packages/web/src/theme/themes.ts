import { createTheme, darken, type Theme } from '@mui/material/styles';
import type { Theme as ClientTheme } from '@passgate/contract';

export const DEFAULT_PRIMARY = '#1F5FBF';
export const DEFAULT_BACKGROUND = '#EEF2F8';
export const DEFAULT_BACKGROUND_IMAGE = '/themes/default-bg.svg';

/** SPEC.md section 9: forms and content at most 420 px wide, dialogs 720 px. */
export const CONTENT_MAX_WIDTH = 420;
export const DIALOG_MAX_WIDTH = 720;

function baseTheme(primary: string, background: string, button: string): Theme {
  const theme = createTheme({
    palette: {
      primary: { main: primary },
      background: { default: background },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
      h1: { fontSize: '1.625rem', fontWeight: 600 },
      h2: { fontSize: '1.25rem', fontWeight: 600 },
    },
  });
  const buttonPalette = theme.palette.augmentColor({ color: { main: button } });
  return createTheme(theme, {
    palette: { button: buttonPalette },
    components: {
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: {
          root: { minHeight: 44 },
          containedPrimary: {
            backgroundColor: buttonPalette.main,
            color: buttonPalette.contrastText,
            '&:hover': { backgroundColor: darken(buttonPalette.main, 0.12) },
          },
        },
      },
      MuiDialog: {
        styleOverrides: { paper: { maxWidth: DIALOG_MAX_WIDTH } },
      },
    },
  });
}

/** The theme of the account area and of screens shown without a client. */
export const appTheme = baseTheme(DEFAULT_PRIMARY, DEFAULT_BACKGROUND, DEFAULT_PRIMARY);

/** One MUI theme built from the client's theme (primary, background and button colours). */
export function clientMuiTheme(theme: ClientTheme | null | undefined): Theme {
  if (!theme) return appTheme;
  const primary = theme.primaryColor ?? DEFAULT_PRIMARY;
  return baseTheme(primary, theme.backgroundColor ?? DEFAULT_BACKGROUND, theme.buttonColor ?? primary);
}
