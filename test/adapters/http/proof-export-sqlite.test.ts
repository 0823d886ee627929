import { proofExportSuite } from './proof-export-suite.js';

proofExportSuite('sqlite', async () => 'sqlite::memory:');
