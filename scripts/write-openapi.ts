/**
 * Writes docs/openapi.json from the schemas (`npm run openapi`). A test fails when the committed
 * file differs from what this would write.
 */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '#shared/openapi';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log('wrote docs/openapi.json');
