import 'i18next';
import type accountVi from './account/vi.json';
import type adminVi from './admin/vi.json';
import type vi from './vi.json';

/** Translation keys are checked at compile time against the vi files (the parity test keeps en equal). */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof vi & typeof accountVi & typeof adminVi };
  }
}
