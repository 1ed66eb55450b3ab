import '@mui/material/styles';

/** The client's button colour (theme.buttonColor), beside its primary colour. */
declare module '@mui/material/styles' {
  interface Palette {
    button: Palette['primary'];
  }
  interface PaletteOptions {
    button?: PaletteOptions['primary'];
  }
}
