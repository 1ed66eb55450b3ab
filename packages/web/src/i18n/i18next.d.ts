import 'i18next';
import type vi from './vi.json';

/** Translation keys are checked at compile time against vi.json (the parity test keeps en.json equal). */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof vi };
  }
}
