/**
 * @module zod
 * zod extended with `.openapi()` metadata, so request/response schemas and the OpenAPI document
 * come from the same objects. Import `z` from here, never from 'zod' directly.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
