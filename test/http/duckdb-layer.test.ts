/**
 * The DuckDB Lambda layer (`layers/duckdb/`): its plan follows the repository's pins (one DuckDB
 * version for the Node bindings and every extension), and a build (npm and PyPI, ~10 s) lays out
 * linux-arm64 bindings under nodejs/node_modules and aarch64 extension files for that DuckDB
 * version under duckdb-extensions/, as Lambda mounts them in /opt.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLayer, type LayerBuild } from '../../layers/duckdb/build.ts';
import { duckdbVersionOf, extensionFooter, pinnedVersion, planLayer } from '../../layers/duckdb/plan.ts';
import { REPO_ROOT } from '../helpers/local-stack-process.ts';

describe('the DuckDB layer plan', () => {
  it('Should take the bindings from the pinned @duckdb/node-api and extensions of the same DuckDB version', () => {
    // Act
    const plan = planLayer(REPO_ROOT);
    // Assess
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(plan.npmPackages).toEqual([`@duckdb/node-api@${pkg.dependencies['@duckdb/node-api']}`]);
    expect(plan.bindingPackage).toBe('@duckdb/node-bindings-linux-arm64');
    expect(plan.wheels.map((w) => w.requirement)).toEqual(['iceberg', 'avro', 'httpfs'].map((e) => `duckdb-extension-${e}==${plan.duckdbVersion.slice(1)}`));
    expect(plan.layout).toEqual({ nodeModules: 'nodejs/node_modules', extensions: 'duckdb-extensions' });
  });

  it('Should read versions the way the pins write them', () => {
    // Assess
    expect(duckdbVersionOf('1.5.5-r.5')).toBe('v1.5.5');
    expect(duckdbVersionOf('1.4.0')).toBe('v1.4.0');
    expect(() => duckdbVersionOf('latest')).toThrow();
    expect(pinnedVersion('a==1\nduckdb_extension_avro==1.5.5\n', 'duckdb-extension-avro')).toBe('1.5.5');
    expect(() => pinnedVersion('a==1\n', 'duckdb-extension-avro')).toThrow(/not pinned/);
  });

  it("Should read an extension's platform and DuckDB version from its footer (the local set-up's files)", () => {
    // Act
    const footer = extensionFooter(readFileSync(path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions', 'iceberg.duckdb_extension')));
    // Assess
    expect(footer.duckdbVersion).toBe(planLayer(REPO_ROOT).duckdbVersion);
    expect(footer.platform).toMatch(/^linux_(amd64|arm64)$/);
  });
});

describe('the DuckDB layer build', () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'lakeline-layer-test-'));
  let built: LayerBuild;
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('Should lay out the linux-arm64 bindings and the aarch64 extensions as /opt expects them', () => {
    // Act
    built = buildLayer(out);
    // Assess
    const modules = path.join(out, 'nodejs', 'node_modules');
    expect(readdirSync(path.join(modules, '@duckdb')).sort()).toEqual(['node-api', 'node-bindings', 'node-bindings-linux-arm64']);
    expect(existsSync(path.join(modules, 'detect-libc', 'package.json'))).toBe(true);
    const binary = readFileSync(path.join(modules, '@duckdb', 'node-bindings-linux-arm64', 'duckdb.node'));
    expect(binary.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(binary.readUInt16LE(18)).toBe(183);
    expect(readdirSync(path.join(out, 'duckdb-extensions')).sort()).toEqual(['avro.duckdb_extension', 'httpfs.duckdb_extension', 'iceberg.duckdb_extension']);
    for (const file of readdirSync(path.join(out, 'duckdb-extensions'))) {
      expect(extensionFooter(readFileSync(path.join(out, 'duckdb-extensions', file)))).toEqual({ platform: 'linux_arm64', duckdbVersion: built.plan.duckdbVersion });
    }
    const manifest = JSON.parse(readFileSync(path.join(out, 'layer-manifest.json'), 'utf8')) as { files: Record<string, string> };
    expect(Object.keys(manifest.files)).toHaveLength(5);
    expect(manifest.files).toEqual(built.files);
  }, 120_000);
});
