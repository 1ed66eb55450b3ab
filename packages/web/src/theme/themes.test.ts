import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { clientMuiTheme, readableOn, textOn } from './themes.ts';

describe('client theme colours follow contrast', () => {
  it('keeps a brand colour that already reads as text, and darkens a light one until it does', () => {
    expect(readableOn('#1565C0')).toBe('#1565C0');
    const yellow = readableOn('#FFD54F');
    expect(getContrastRatio(yellow, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('writes button labels in white only where white reaches 4.5:1', () => {
    expect(clientMuiTheme({ buttonColor: '#1565C0' }).palette.button.contrastText).toBe('#fff');
    // White on this orange is 2.9:1, on this green 3.3:1: both get dark labels.
    expect(clientMuiTheme({ buttonColor: '#F57C00' }).palette.button.contrastText).not.toBe('#fff');
    expect(clientMuiTheme({ buttonColor: '#43A047' }).palette.button.contrastText).not.toBe('#fff');
  });

  it("carries the client's button colour beside its primary colour, flat 44 px buttons and 720 px dialogs", () => {
    const theme = clientMuiTheme({ primaryColor: '#0B7A3E', buttonColor: '#F57C00' });
    expect(theme.palette.button.main).toBe('#F57C00');
    expect(theme.palette.primary.main).toBe('#0B7A3E');
    expect(theme.components?.MuiButton?.defaultProps?.disableElevation).toBe(true);
    expect(theme.components?.MuiButton?.styleOverrides?.root).toMatchObject({ minHeight: 44 });
    expect(theme.components?.MuiDialog?.styleOverrides?.paper).toMatchObject({ maxWidth: 720 });
  });

  it('builds a client theme once for the same colours, and again for other ones', () => {
    const first = clientMuiTheme({ primaryColor: '#0B7A3E', backgroundColor: '#F4F1EA' });
    expect(clientMuiTheme({ primaryColor: '#0B7A3E', backgroundColor: '#F4F1EA' })).toBe(first);
    const other = clientMuiTheme({ primaryColor: '#0B7A3E', backgroundColor: '#FFFFFF' });
    expect(other).not.toBe(first);
    expect(other.palette.background.default).toBe('#FFFFFF');
    // Past the few kept, the oldest is built anew (the admin preview tries many colours).
    for (let i = 0; i < 10; i++) clientMuiTheme({ primaryColor: `#0000${String(i).padStart(2, '0')}` });
    expect(clientMuiTheme({ primaryColor: '#0B7A3E', backgroundColor: '#F4F1EA' })).not.toBe(first);
  });

  it('puts dark text on a light page colour and white on a dark one', () => {
    expect(textOn('#EEF2F8')).toBe('rgba(0, 0, 0, 0.87)');
    expect(textOn('#10213F')).toBe('#ffffff');
  });
});
