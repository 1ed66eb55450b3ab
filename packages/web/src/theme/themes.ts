import { alpha, createTheme, darken, getContrastRatio, type Theme } from '@mui/material/styles';
import type { Theme as ClientTheme } from '@passgate/contract';

export const DEFAULT_PRIMARY = '#1F5FBF';
export const DEFAULT_BACKGROUND = '#EEF2F8';
export const DEFAULT_BACKGROUND_IMAGE = '/themes/default-bg.svg';

/** SPEC.md section 9: forms and content at most 420 px wide, dialogs 720 px. */
export const CONTENT_MAX_WIDTH = 420;
export const DIALOG_MAX_WIDTH = 720;

/** WCAG 2.1 AA for normal text (1.4.3). */
const TEXT_CONTRAST = 4.5;

/**
 * A client's colour made dark enough to be read as text (links, text buttons) on `surface`: the
 * theme comes from client settings, and a light brand colour must not make the links unreadable.
 */
export function readableOn(color: string, surface = '#ffffff'): string {
  let readable = color;
  for (let step = 0; step < 20 && getContrastRatio(readable, surface) < TEXT_CONTRAST; step += 1) readable = darken(readable, 0.1);
  return readable;
}

/** Black or white text, whichever reads better on `background` (the client's page colour). */
export function textOn(background: string): string {
  return getContrastRatio('#ffffff', background) > getContrastRatio('rgba(0, 0, 0, 0.87)', background) ? '#ffffff' : 'rgba(0, 0, 0, 0.87)';
}

function baseTheme(primary: string, background: string, button: string): Theme {
  const theme = createTheme({
    palette: {
      primary: { main: readableOn(primary) },
      background: { default: background },
      // Button labels on the client's button colour: white only where it reaches AA, else dark.
      contrastThreshold: TEXT_CONTRAST,
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
      h1: { fontSize: '1.625rem', fontWeight: 600 },
      h2: { fontSize: '1.25rem', fontWeight: 600 },
    },
  });
  // The button colour (ActionButton's fill) needs the built palette for its contrast rule. It is added
  // to the theme just built, before anything reads it: the documented second createTheme(theme, …)
  // would merge the whole theme again, which a phone pays for on every page.
  theme.palette.button = theme.palette.augmentColor({ color: { main: button } });
  theme.components = {
    // People who ask their system for less motion (vestibular disorders, WCAG 2.3.3) get every
    // change at once: no fades, slides or colour transitions, and a pressed button's ripple shown
    // without its growing and fading. The loading spinner keeps turning, slower (Loading.tsx): it
    // says that something is happening.
    MuiCssBaseline: {
      styleOverrides: {
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': { transitionDuration: '0s !important', transitionDelay: '0s !important', scrollBehavior: 'auto !important' },
          '.MuiTouchRipple-ripple, .MuiTouchRipple-child': { animation: 'none !important' },
        },
      },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { minHeight: 44 } },
    },
    MuiDialog: {
      styleOverrides: { paper: { maxWidth: DIALOG_MAX_WIDTH } },
    },
  };
  return theme;
}

/**
 * The CSS background-image of a client's screens: its own picture; else the default picture (SPEC.md:
 * a default background when none is set) under a veil of the client's background colour when it
 * has one, so that the colour the operator picked is the colour people see rather than only the
 * colour shown while the picture loads.
 */
export function backgroundImageOf(theme: Pick<ClientTheme, 'backgroundImageUri' | 'backgroundColor'> | null | undefined): string {
  const picture = (uri: string) => `url("${encodeURI(uri)}")`;
  if (theme?.backgroundImageUri) return picture(theme.backgroundImageUri);
  if (!theme?.backgroundColor) return picture(DEFAULT_BACKGROUND_IMAGE);
  const veil = alpha(theme.backgroundColor, 0.8);
  return `linear-gradient(${veil}, ${veil}), ${picture(DEFAULT_BACKGROUND_IMAGE)}`;
}

/** The theme of the account area and of screens shown without a client. */
export const appTheme = baseTheme(DEFAULT_PRIMARY, DEFAULT_BACKGROUND, DEFAULT_PRIMARY);

/**
 * Themes already built, by colours: each screen of a sign-in (Loading, then the screen itself, then
 * the next step) wears the same client's theme, and building one costs a phone some 10 ms. A few
 * are kept, as the admin console's live preview makes a new one at each colour it is shown.
 */
const builtThemes = new Map<string, Theme>();
const BUILT_THEMES_KEPT = 8;

/** One MUI theme built from the client's theme (primary, background and button colours). */
export function clientMuiTheme(theme: ClientTheme | null | undefined): Theme {
  if (!theme) return appTheme;
  const primary = theme.primaryColor ?? DEFAULT_PRIMARY;
  const colours = [primary, theme.backgroundColor ?? DEFAULT_BACKGROUND, theme.buttonColor ?? primary] as const;
  const key = colours.join(' ');
  let built = builtThemes.get(key);
  if (!built) {
    built = baseTheme(...colours);
    builtThemes.set(key, built);
    if (builtThemes.size > BUILT_THEMES_KEPT) builtThemes.delete(builtThemes.keys().next().value!);
  }
  return built;
}
