// Loads the OpenLineage reference events kept in `shared/` beside the repository (see
// shared/openlineage/README.md). A missing directory fails loudly: a parity suite that silently
// ran over nothing would prove nothing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in test/unit/domain/lineage/). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** `shared/`, a sibling of the repository in every checkout (and in CI). */
export const SHARED_DIR = path.resolve(REPO_ROOT, '..', 'shared');
export const EXAMPLES_DIR = path.join(SHARED_DIR, 'openlineage', 'examples');
export const OFFICIAL_SCHEMA_PATH = path.join(SHARED_DIR, 'openlineage', 'spec', 'OpenLineage.json');

/** One example file. */
export interface Example {
  /** Path relative to the examples directory, with `/` separators: `marquez/event_full.json`. */
  readonly name: string;
  /** The file's text. */
  readonly text: string;
  /** Its UTF-8 byte length. */
  readonly bytes: number;
}

function listJson(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return listJson(full);
      return entry.name.endsWith('.json') ? [full] : [];
    })
    .sort();
}

/** Every example file, recursively, sorted by name. */
export function loadExamples(): Example[] {
  if (!fs.existsSync(EXAMPLES_DIR)) {
    throw new Error(`OpenLineage examples not found at ${EXAMPLES_DIR}; shared/ must sit beside the repository`);
  }
  return listJson(EXAMPLES_DIR).map((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return { name: path.relative(EXAMPLES_DIR, file).split(path.sep).join('/'), text, bytes: Buffer.byteLength(text) };
  });
}

/** One example by name; a fresh parse on every call, so tests cannot share mutations. */
export function example(name: string): { readonly json: Record<string, unknown>; readonly bytes: number; readonly text: string } {
  const file = path.join(EXAMPLES_DIR, ...name.split('/'));
  const text = fs.readFileSync(file, 'utf8');
  return { json: JSON.parse(text) as Record<string, unknown>, bytes: Buffer.byteLength(text), text };
}
