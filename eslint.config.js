import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/test-results/**', '**/playwright-report/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The main contract entry carries every zod schema; the screens take values from the
      // zod-free rules entry so that zod stays out of the first load of /login.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@passgate/contract', message: "Import values from '@passgate/contract/rules' (types may come from '@passgate/contract').", allowTypeImports: true }] },
      ],
    },
  },
  {
    // Tests read JSON answers whose shape the assertions themselves check.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts', 'packages/server/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['packages/server/src/cli/**/*.ts', 'scripts/**', 'packages/*/scripts/**', 'packages/server/bench/**'],
    rules: { 'no-console': 'off' },
  },
);
