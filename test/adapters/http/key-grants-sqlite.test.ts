import { keyGrantsSuite } from './key-grants-suite.js';

keyGrantsSuite('sqlite', async () => 'sqlite::memory:');
