// @ts-check
/**
 * ESLint for the whole tree: TypeScript everywhere, Astro components, React hooks and
 * accessibility in islands. Layout is Prettier's job (.prettierrc.json), not ESLint's.
 * jsx-a11y comes as eslint-plugin-jsx-a11y-x, its ESLint 10 build, which the Astro plugin's
 * accessibility config also uses.
 */
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores([
    'dist/',
    '.astro/',
    '.netlify/',
    '.data/',
    'reports/',
    'node_modules/',
    'test-results/',
    'playwright-report/',
    // Decap CMS's bundle, vendored as published (npm run cms:vendor).
    'public/admin/cms/decap/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  astro.configs.recommended,
  astro.configs['jsx-a11y-recommended'],
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // A leading underscore marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    extends: [reactHooks.configs.flat['recommended-latest'], jsxA11y.configs.recommended],
  },
]);
