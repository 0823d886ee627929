// Lints TypeScript with type information; the architecture rules live in .dependency-cruiser.cjs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dashboard/dist/**', 'node_modules/**', 'data/**', 'bin/**', 'eslint.config.js', '.dependency-cruiser*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The library entry only re-exports: code of its own there would be a second home for it.
    files: ['src/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program > :not(ExportNamedDeclaration[source], ExportAllDeclaration)',
          message: 'src/index.ts only re-exports (`export … from`); put the code where it belongs and re-export it.',
        },
      ],
    },
  },
);
