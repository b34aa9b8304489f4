/**
 * @module layers/duckdb/plan
 * What the DuckDB Lambda layer holds, worked out from the repository's own pins: the Node
 * bindings of `@duckdb/node-api` (the version in package.json) for linux-arm64, and the DuckDB
 * extension files of the same DuckDB version from the `duckdb-extension-*` wheels (the version in
 * requirements.lock) for manylinux aarch64. Pure, so it can be tested without a network.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Extensions the engine loads in AWS: Iceberg tables (iceberg, avro) on S3 (httpfs). */
export const LAYER_EXTENSIONS = ['iceberg', 'avro', 'httpfs'] as const;

/** Lambda's architecture for the layer, in each tool's words. */
export const TARGET = {
  /** npm `--os`/`--cpu`/`--libc`. */
  npm: { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  /** pip `--platform` tags: the extension wheels are manylinux2014 (glibc 2.17) aarch64. */
  pipPlatforms: ['manylinux2014_aarch64', 'manylinux_2_28_aarch64'],
  /** The platform DuckDB writes into each extension's footer. */
  duckdbPlatform: 'linux_arm64',
} as const;

/** Everything the build does, as data. */
export interface LayerPlan {
  /** npm packages installed into `nodejs/` (dependencies follow). */
  readonly npmPackages: readonly string[];
  /** The platform package whose native binary must end up in the layer. */
  readonly bindingPackage: string;
  /** pip requirements downloaded as wheels. */
  readonly wheels: readonly { readonly requirement: string; readonly extension: string; readonly member: string }[];
  /** The DuckDB version (`v1.5.5`) every binary must be built for. */
  readonly duckdbVersion: string;
  /** Paths inside the layer (and under /opt once deployed). */
  readonly layout: { readonly nodeModules: string; readonly extensions: string };
}

/** The DuckDB version of a `@duckdb/node-api` version (`1.5.5-r.5` → `v1.5.5`). */
export const duckdbVersionOf = (nodeApiVersion: string): string => {
  const match = /^(\d+\.\d+\.\d+)(?:-r\.\d+)?$/.exec(nodeApiVersion);
  if (!match) throw new Error(`cannot read a DuckDB version from @duckdb/node-api ${nodeApiVersion}`);
  return `v${match[1]}`;
};

/** The pinned version of a Python package in a requirements lock file. */
export const pinnedVersion = (lockText: string, name: string): string => {
  const normalized = (s: string) => s.toLowerCase().replace(/[-_.]+/g, '-');
  for (const line of lockText.split('\n')) {
    const match = /^([A-Za-z0-9_.-]+)==([^\s;#]+)/.exec(line.trim());
    if (match && normalized(match[1] as string) === normalized(name)) return match[2] as string;
  }
  throw new Error(`${name} is not pinned in the requirements lock`);
};

/** Plans the layer from the repository's package.json and requirements.lock. */
export const planLayer = (repoRoot: string): LayerPlan => {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const nodeApi = pkg.dependencies['@duckdb/node-api'];
  if (!nodeApi) throw new Error('package.json does not depend on @duckdb/node-api');
  const duckdbVersion = duckdbVersionOf(nodeApi);
  const lock = readFileSync(path.join(repoRoot, 'requirements.lock'), 'utf8');
  const wheels = LAYER_EXTENSIONS.map((extension) => {
    const name = `duckdb-extension-${extension}`;
    // httpfs is not needed locally, so the lock may not pin it: it then follows the DuckDB version.
    let version: string;
    try {
      version = pinnedVersion(lock, name);
    } catch {
      version = duckdbVersion.slice(1);
    }
    if (`v${version}` !== duckdbVersion) throw new Error(`${name}==${version} does not match DuckDB ${duckdbVersion} of @duckdb/node-api ${nodeApi}`);
    return { requirement: `${name}==${version}`, extension, member: `duckdb_extension_${extension}/extensions/${duckdbVersion}/${extension}.duckdb_extension` };
  });
  return {
    npmPackages: [`@duckdb/node-api@${nodeApi}`],
    bindingPackage: `@duckdb/node-bindings-${TARGET.npm.os}-${TARGET.npm.cpu}`,
    wheels,
    duckdbVersion,
    layout: { nodeModules: 'nodejs/node_modules', extensions: 'duckdb-extensions' },
  };
};

/** The metadata DuckDB writes at the end of an extension file. */
export interface ExtensionFooter {
  readonly platform: string;
  readonly duckdbVersion: string;
}

/**
 * Reads an extension's footer: before the 256-byte signature sit 8 fields of 32 bytes, stored
 * last-first (…, extension version, DuckDB version, platform, magic).
 */
export const extensionFooter = (bytes: Uint8Array): ExtensionFooter => {
  const metadataStart = bytes.length - 256 - 8 * 32;
  const field = (index: number): string => {
    const start = metadataStart + (7 - index) * 32;
    return Buffer.from(bytes.subarray(start, start + 32)).toString('latin1').replace(/\0+$/, '');
  };
  return { platform: field(1), duckdbVersion: field(2) };
};
