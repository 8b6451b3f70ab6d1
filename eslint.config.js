// ESLint's recommended rules over the JavaScript (npm test runs it), plus what
// this codebase relies on: ES modules everywhere, the page's code in browsers
// (and web/lib in Node too), scripts and tests in Node, whose page.evaluate()
// callbacks run in the browser.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['web/generated/', 'build/', 'node_modules/', 'test-results/', 'scratch/'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-implicit-globals': 'error',
      'no-shadow-restricted-names': 'error',
      'no-throw-literal': 'error',
      'no-new-func': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      // A line limit: code lines at most 160 columns (text in strings and templates may run longer).
      'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
  { files: ['web/app/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['web/lib/**/*.js'], languageOptions: { globals: { ...globals.browser, ...globals.node } } },
  { files: ['web/lib/training-worker.js'], languageOptions: { globals: globals.worker } },
  { files: ['scripts/**/*.{js,mjs}', 'eslint.config.js'], languageOptions: { globals: globals.node } },
  // Corpus cleaning removes control characters and reads binary formats by pattern.
  { files: ['scripts/corpus-text.mjs'], rules: { 'no-control-regex': 'off' } },
  { files: ['tests/**/*.{js,mjs}', 'bench/**/*.{js,mjs}', 'scripts/texts.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  // Its page.evaluate() callbacks run in H5P's frame, where H5P is a global.
  { files: ['tests/browser/h5p.browser.test.mjs'], languageOptions: { globals: { H5P: 'readonly' } } },
  // Classic scripts: the page's message for browsers without modules (old-style on
  // purpose), and the test fixture that also loads from file://.
  { files: ['web/app/shell/no-modules.js', 'tests/browser/fixtures/check-lab.js'], languageOptions: { sourceType: 'script' } },
  { files: ['web/app/shell/no-modules.js'], rules: { 'no-var': 'off' } },
  // The H5P content type's class: a classic script in H5P's frame, where H5P (its core) is a global.
  { files: ['h5p/**/*.js'], languageOptions: { sourceType: 'script', globals: { ...globals.browser, H5P: 'writable' } } },
];
