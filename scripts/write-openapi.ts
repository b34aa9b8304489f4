/**
 * Writes docs/openapi.json from the schemas (`npm run openapi`). A test fails when the committed
 * file differs from what this would write (test/http/openapi.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { renderOpenApiDocument } from '#shared/openapi';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), renderOpenApiDocument());
console.log('wrote docs/openapi.json');
